import DataModel
import Testing
@testable import SQLiteStore

/// The storage shapes the scenario models do not all reach: a relationship that is its own
/// inverse, a to-many without an inverse, and an ordered many-to-many. Each is written, read
/// back after a reopen, and changed again.
@Suite struct RelationshipStorageTests {
    static func model() throws -> Model {
        try TestModels.model("""
            <entity name="Person">
                <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
            </entity>
            <entity name="Folder">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item"/>
            </entity>
            <entity name="Item"/>
            <entity name="Album">
                <relationship name="photos" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Photo" inverseName="albums" inverseEntity="Photo"/>
            </entity>
            <entity name="Photo">
                <relationship name="albums" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Album" inverseName="photos" inverseEntity="Album"/>
            </entity>
            """)
    }

    @Test func aRelationshipThatIsItsOwnInverseIsSymmetricAcrossReopen() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("People.sqlite")
        var store = try SQLiteObjectStore(path: path, model: Self.model())
        let ann = try store.insert("Person"), ben = try store.insert("Person"), cat = try store.insert("Person")
        try store.link(ann, "friends", to: ben)
        try store.link(cat, "friends", to: ann)
        try store.save()
        try store.close()
        store = try SQLiteObjectStore(path: path, model: Self.model())
        #expect(Set(try store.related(ann, "friends")) == [ben, cat])
        #expect(try store.related(ben, "friends") == [ann])
        try store.unlink(ben, "friends", from: ann)
        try store.save()
        try store.close()
        store = try SQLiteObjectStore(path: path, model: Self.model())
        #expect(try store.related(ann, "friends") == [cat])
        #expect(try store.related(ben, "friends") == [])
    }

    @Test func aToManyWithoutInverseLetsADestinationBelongToSeveralSources() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Folders.sqlite")
        var store = try SQLiteObjectStore(path: path, model: Self.model())
        let inbox = try store.insert("Folder"), archive = try store.insert("Folder")
        let item = try store.insert("Item")
        try store.link(inbox, "items", to: item)
        try store.link(archive, "items", to: item)
        try store.save()
        try store.close()
        store = try SQLiteObjectStore(path: path, model: Self.model())
        #expect(try store.related(inbox, "items") == [item])
        #expect(try store.related(archive, "items") == [item])
        // Deleting the destination takes its join rows with it at save.
        try store.delete(item)
        try store.save()
        #expect(try store.related(inbox, "items") == [])
    }

    @Test func anOrderedManyToManyKeepsItsOrderInTheJoinTable() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Albums.sqlite")
        var store = try SQLiteObjectStore(path: path, model: Self.model())
        let trip = try store.insert("Album"), best = try store.insert("Album")
        let photos = try (0..<4).map { _ in try store.insert("Photo") }
        for photo in [photos[2], photos[0], photos[3]] { try store.link(trip, "photos", to: photo) }
        for photo in [photos[1], photos[2]] { try store.link(best, "photos", to: photo) }
        try store.save()
        try store.close()
        store = try SQLiteObjectStore(path: path, model: Self.model())
        #expect(try store.related(trip, "photos") == [photos[2], photos[0], photos[3]])
        #expect(Set(try store.related(photos[2], "albums")) == [trip, best])
        // Removing from the middle keeps the order of the rest; appending goes last.
        try store.unlink(trip, "photos", from: photos[0])
        try store.link(photos[1], "albums", to: trip)
        try store.save()
        try store.close()
        store = try SQLiteObjectStore(path: path, model: Self.model())
        #expect(try store.related(trip, "photos") == [photos[2], photos[3], photos[1]])
        #expect(try store.related(photos[0], "albums") == [])
    }
}

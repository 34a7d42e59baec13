import Conformance
import DataModel
import Testing
@testable import SQLiteStore

/// Deleting as sets (`ObjectContext.deleteAsSet`) must change nothing anyone can observe: the
/// same random edits and deletions go to two stores, one deleting as sets where it can, one
/// object by object, and after every step both must answer every question alike — which
/// objects live, every relationship in order, and what each save does.
@Suite struct SetDeletionTests {
    /// Cascades over a to-many (inverse column), a to-one chain that may close into a ring, a
    /// many-to-many (join table), a to-many without inverse, a sub-entity's own cascade, an
    /// ordered Nullify with a minimum count, No Action, and a Deny the cascade can reach from
    /// `Tag` only (so those deletions take the general path).
    static func model() throws -> Model {
        try TestModels.model("""
            <entity name="Folder">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>
                <relationship name="ordered" optional="NO" toMany="YES" minCount="1" ordered="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="orderedIn" inverseEntity="Item"/>
            </entity>
            <entity name="Item">
                <attribute name="index" optional="YES" attributeType="Integer 64"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>
                <relationship name="orderedIn" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="ordered" inverseEntity="Folder"/>
                <relationship name="next" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Item" inverseName="previous" inverseEntity="Item"/>
                <relationship name="previous" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Item" inverseName="next" inverseEntity="Item"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                <relationship name="links" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item"/>
            </entity>
            <entity name="Part" parentEntity="Item">
                <relationship name="extra" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Label"/>
            </entity>
            <entity name="Label">
                <attribute name="text" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Tag">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
                <relationship name="keeper" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Person"/>
            </entity>
            <entity name="Person">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
                <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
                <relationship name="badge" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Label"/>
            </entity>
            """)
    }

    static let relationships: [String: [String]] = [
        "Folder": ["items", "ordered"],
        "Item": ["folder", "orderedIn", "next", "previous", "tags", "owner", "links"],
        "Part": ["folder", "orderedIn", "next", "previous", "tags", "owner", "links", "extra"],
        "Label": [],
        "Tag": ["items", "keeper"],
        "Person": ["items", "friends", "badge"],
    ]
    static let roots = ["Folder", "Item", "Label", "Tag", "Person"]

    /// A small deterministic generator, so a failure names its seed.
    struct Generator {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int((state >> 33) % UInt64(bound))
        }
    }

    /// The same calls, in the same order, on both stores: the object IDs agree.
    struct Pair {
        var set: SQLiteObjectStore
        var general: SQLiteObjectStore

        func both<T: Equatable>(_ body: (SQLiteObjectStore) throws -> T, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> T {
            let a = Result { try body(set) }, b = Result { try body(general) }
            switch (a, b) {
            case (.success(let x), .success(let y)):
                #expect(x == y, sourceLocation: sourceLocation)
                return x
            case (.failure(let x), .failure(let y)):
                #expect("\(x)" == "\(y)", sourceLocation: sourceLocation)
                throw x
            default:
                Issue.record("one store answered \(a), the other \(b)", sourceLocation: sourceLocation)
                return try a.get()
            }
        }

        func both(do body: (SQLiteObjectStore) throws -> Void, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            _ = try both({ try body($0); return true }, sourceLocation: sourceLocation)
        }

        /// Every live object and every relationship of each, as both stores see them.
        func expectSameState(_ step: String) throws {
            for entity in SetDeletionTests.roots {
                let live = try both { try $0.fetch(entity) }
                for object in live {
                    let name = try both { try $0.entityName(of: object) }
                    for relationship in SetDeletionTests.relationships[name]! {
                        let a = try set.related(object, relationship), b = try general.related(object, relationship)
                        #expect(a == b, "\(step): \(name) \(object).\(relationship)")
                    }
                }
            }
        }
    }

    @Test(arguments: 0..<6)
    func deletingAsSetsChangesNothingObservable(seed: UInt64) throws {
        let scratch = try ScratchDirectory()
        let model = try Self.model()
        let pair = Pair(set: try SQLiteObjectStore(path: scratch.path("set.sqlite"), model: model),
                        general: try SQLiteObjectStore(path: scratch.path("general.sqlite"), model: model))
        pair.general.allowsSetDeletion = false
        var random = Generator(state: seed &+ 1)

        var objects: [String: [ObjectID]] = [:]
        for (entity, count) in [("Folder", 4), ("Item", 24), ("Part", 12), ("Label", 8), ("Tag", 5), ("Person", 4)] {
            objects[entity] = try (0..<count).map { _ in try pair.both { try $0.insert(entity) } }
        }
        let items = objects["Item"]! + objects["Part"]!
        func any(_ entity: String) -> ObjectID {
            let pool = entity == "Item" ? items : objects[entity]!
            return pool[random.next(pool.count)]
        }
        func link(_ object: ObjectID, _ relationship: String, _ destination: ObjectID) throws {
            try? pair.both(do: { try $0.link(object, relationship, to: destination) })
        }
        for folder in objects["Folder"]! { try link(folder, "ordered", any("Item")) }
        for _ in 0..<60 {
            switch random.next(8) {
            case 0: try link(any("Folder"), "items", any("Item"))
            case 1: try link(any("Folder"), "ordered", any("Item"))
            case 2: try link(any("Item"), "next", any("Item"))
            case 3: try link(any("Item"), "tags", any("Tag"))
            case 4: try link(any("Item"), "owner", any("Person"))
            case 5: try link(any("Item"), "links", any("Item"))
            case 6: try link(objects["Part"]![random.next(12)], "extra", any("Label"))
            default: try link(any("Person"), "friends", any("Person"))
            }
        }
        try link(any("Tag"), "keeper", any("Person"))
        try pair.both(do: { try $0.save() })
        try pair.expectSameState("seed \(seed), built")

        for round in 0..<12 {
            // A few pending edits first, so that some deletions reach changed objects.
            for _ in 0..<random.next(3) {
                let item = any("Item")
                guard try pair.both({ try $0.exists(item) }) else { continue }
                if random.next(2) == 0 {
                    try pair.both(do: { try $0.set("index", of: item, to: .integer(Int64(round))) })
                } else {
                    try link(item, "tags", any("Tag"))
                }
            }
            for _ in 0...random.next(2) {
                let entity = ["Folder", "Item", "Item", "Tag", "Person"][random.next(5)]
                let victim = any(entity)
                guard try pair.both({ try $0.exists(victim) }) else { continue }
                try pair.both(do: { try $0.delete(victim) })
            }
            try pair.expectSameState("seed \(seed), round \(round), pending")
            let saved = Result { try pair.set.save() }, savedGeneral = Result { try pair.general.save() }
            switch (saved, savedGeneral) {
            case (.success, .success): break
            case (.failure(let a), .failure(let b)):
                #expect("\(a)" == "\(b)", "seed \(seed), round \(round)")
                pair.set.reset()
                pair.general.reset()
            default:
                Issue.record("seed \(seed), round \(round): one save gave \(saved), the other \(savedGeneral)")
                return
            }
            try pair.expectSameState("seed \(seed), round \(round), saved")
        }
    }

    @Test func aCascadeOverSavedRowsRunsAsASetAndLoadsNoObject() throws {
        let scratch = try ScratchDirectory()
        let model = try Self.model()
        let store = try SQLiteObjectStore(path: scratch.path("chain.sqlite"), model: model)
        let head = try store.insert("Item")
        var tail = head
        for _ in 0..<50 {
            let next = try store.insert("Item")
            try store.link(tail, "next", to: next)
            tail = next
        }
        try store.save()

        try store.delete(head)
        #expect(store.context.objects.count == 1)
        #expect(!store.context.setDeletedTables.isEmpty)
        #expect(try !store.exists(tail))
        #expect(try store.count("Item") == 0)
        #expect(store.hasChanges)
        try store.save()
        #expect(try store.savedCount("Item") == 0)
    }

    /// A set's rows go by one of two statements (`SaveWriter.deleteSetRows`): one pass over
    /// the table when the set holds most of it (40 of 50 items), a lookup of each key otherwise
    /// (3 of 50). Either deletes exactly the set's rows, and nothing of another table whose keys
    /// are the same numbers.
    @Test(arguments: [40, 3])
    func aSetDeletesExactlyItsRowsWhateverItsShareOfTheTable(deleted: Int) throws {
        let scratch = try ScratchDirectory()
        let store = try SQLiteObjectStore(path: scratch.path("share.sqlite"), model: try Self.model())
        var items = [try store.insert("Item")]
        for _ in 1..<50 {
            let next = try store.insert("Item")
            try store.link(items.last!, "next", to: next)
            items.append(next)
        }
        for _ in 0..<50 { _ = try store.insert("Label") }
        try store.save()

        let firstDeleted = items.count - deleted
        try store.delete(items[firstDeleted])
        #expect(!store.context.setDeletedTables.isEmpty)
        try store.save()
        #expect(try store.savedCount("Item") == firstDeleted)
        for (index, item) in items.enumerated() {
            #expect(try store.savedExists(item) == (index < firstDeleted), "item \(index)")
        }
        #expect(try store.related(items[firstDeleted - 1], "next") == [])
        #expect(try store.savedCount("Label") == 50)
    }

    @Test func aResetForgetsASetDeletion() throws {
        let scratch = try ScratchDirectory()
        let store = try SQLiteObjectStore(path: scratch.path("reset.sqlite"), model: try Self.model())
        let folder = try store.insert("Folder")
        let kept = try store.insert("Item")
        let child = try store.insert("Item")
        try store.link(folder, "items", to: child)
        try store.link(folder, "ordered", to: kept)
        try store.save()

        try store.delete(folder)
        #expect(try store.count("Item") == 1)
        store.reset()
        #expect(!store.hasChanges)
        #expect(try store.count("Item") == 2)
        #expect(try store.related(kept, "orderedIn") == [folder])
        // A later deletion starts from an empty set: the reset's keys are not deleted with it.
        try store.delete(child)
        try store.save()
        #expect(try store.savedCount("Item") == 1)
        #expect(try store.savedCount("Folder") == 1)
    }

    /// An overwrite merge deletes the stored object inside the save's transaction; a cascade
    /// from it runs as a set there too, on a connection that has made no key table yet.
    @Test func aCascadeFromAnOverwrittenObjectRunsInsideTheSave() throws {
        let model = try TestModels.model("""
            <entity name="Account">
                <attribute name="email" optional="YES" attributeType="String"/>
                <relationship name="profile" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Profile" inverseName="account" inverseEntity="Profile"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="email"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Profile">
                <relationship name="account" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="profile" inverseEntity="Account"/>
            </entity>
            """)
        let scratch = try ScratchDirectory()
        let path = scratch.path("accounts.sqlite")
        var store = try SQLiteObjectStore(path: path, model: model)
        let stored = try store.insert("Account", values: ["email": .string("a@example.com")])
        try store.link(stored, "profile", to: try store.insert("Profile"))
        try store.save()
        try store.close()

        store = try SQLiteObjectStore(path: path, model: model)
        let replacement = try store.insert("Account", values: ["email": .string("a@example.com")])
        try store.save(mergePolicy: .overwrite)
        #expect(try store.savedCount("Account") == 1)
        #expect(try store.savedExists(replacement))
        #expect(try !store.savedExists(stored))
        #expect(try store.savedCount("Profile") == 0)
        try store.close()
    }
}

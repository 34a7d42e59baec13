import Conformance
import DataModel
import Foundation
import GRDB
import Testing
@testable import SQLiteStore

/// A Binary attribute that allows external storage, as Core Data writes it. Core Data does
/// not document the column; what its framework shows (docs/sqlite-store.md, "External
/// storage"; INFERRED) is a marker byte, 1 before bytes kept inline and 2 before the name of a
/// file kept beside the store. momlint does not interpret either: the column's bytes are the
/// value, kept as they are by a dump and by a save that changes another attribute, and never
/// replaced with bytes of momlint's in a store Core Data wrote.
@Suite struct ExternalStorageTests {
    static let model = """
        <entity name="Photo">
            <attribute name="caption" optional="YES" attributeType="String"/>
            <attribute name="image" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
        </entity>
        """
    static let inline = Data([1]) + Data((0..<300).map { UInt8(truncatingIfNeeded: $0 &* 7) })
    static let reference = Data([2]) + Data("2F6C1B0E-8D4A-4E49-9B1D-3C8E5A7F0D21".utf8) + Data([0])

    /// A Core Data–like store with one photo of each form, and the external file the second
    /// names (which momlint never reads), in `.Photos_SUPPORT/_EXTERNAL_DATA`.
    static func store(in scratch: ScratchDirectory) throws -> (path: String, model: Model) {
        let model = try TestModels.model(Self.model)
        let path = try CoreDataStoreRecognitionTests.coreDataLikeStore(at: scratch.path("Photos.sqlite"), model: model,
                                                                        persistentHistory: false) { store in
            try store.insert("Photo", values: ["caption": .string("small")])
            try store.insert("Photo", values: ["caption": .string("large")])
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE Z_PK = 1", arguments: [Self.inline])
            try db.execute(sql: "UPDATE ZPHOTO SET ZIMAGE = ? WHERE Z_PK = 2", arguments: [Self.reference])
        }
        try queue.close()
        let external = scratch.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA")
        try FileManager.default.createDirectory(at: external, withIntermediateDirectories: true)
        try Data(repeating: 0xAB, count: 2_000_000).write(to: external.appendingPathComponent("2F6C1B0E-8D4A-4E49-9B1D-3C8E5A7F0D21"))
        return (path, model)
    }

    static func storedImages(_ path: String) throws -> [DatabaseValue] {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { db in try DatabaseValue.fetchAll(db, sql: "SELECT ZIMAGE FROM ZPHOTO ORDER BY Z_PK") }
    }

    @Test func bothFormsSurviveADumpAndAnUpdateOfAnotherAttribute() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.store(in: scratch)
        let external = try Data(contentsOf: scratch.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA/2F6C1B0E-8D4A-4E49-9B1D-3C8E5A7F0D21"))

        let reader = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        let dumped = try reader.dump().objects.map { $0.values["image"] }
        try reader.close()
        #expect(dumped == [.binary(Self.inline), .binary(Self.reference)])

        let writer = try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        for photo in try writer.fetch("Photo") {
            try writer.set("caption", of: photo, to: .string("renamed"))
        }
        try writer.save()
        try writer.close()
        #expect(try Self.storedImages(path) == [Self.inline.databaseValue, Self.reference.databaseValue])
        let reopened = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        #expect(try reopened.dump().objects.map { $0.values["image"] } == dumped)
        #expect(try reopened.dump().objects.map { $0.values["caption"] } == [.string("renamed"), .string("renamed")])
        try reopened.close()
        #expect(try Data(contentsOf: scratch.url.appendingPathComponent(".Photos_SUPPORT/_EXTERNAL_DATA/2F6C1B0E-8D4A-4E49-9B1D-3C8E5A7F0D21")) == external)
    }

    /// Bytes of momlint's in such a column would be read by Core Data as a marker and the rest:
    /// a save that would write them into a store Core Data wrote is refused, writing nothing.
    @Test func aValueOfMomlintsIsNotWrittenIntoAStoreCoreDataWrote() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.store(in: scratch)
        let writer = try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        let photo = try #require(try writer.fetch("Photo").first)
        try writer.set("image", of: photo, to: .binary(Data([0x89, 0x50, 0x4E, 0x47])))
        #expect {
            try writer.save()
        } throws: { error in
            (error as? SQLiteStoreError)?.message == "refusing to write '\(path)': 'Photo.image' of object \(photo) allows external storage, "
                + "whose encoding in a store Core Data wrote is not documented; momlint leaves such a value as Core Data wrote it"
        }
        writer.reset()
        // A new photo without an image writes null there, as any store holds an empty value.
        try writer.insert("Photo", values: ["caption": .string("new")])
        try writer.save()
        try writer.close()
        #expect(try Self.storedImages(path) == [Self.inline.databaseValue, Self.reference.databaseValue, .null])
    }

    /// In momlint's own store the column holds the value's bytes, which read back as set.
    @Test func momlintsOwnStoreKeepsTheBytesThemselves() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Own.sqlite")
        let model = try TestModels.model(Self.model)
        let image = Data([0x89, 0x50, 0x4E, 0x47, 0, 1, 2])
        let store = try SQLiteObjectStore(path: path, model: model)
        let photo = try store.insert("Photo", values: ["image": .binary(image)])
        try store.save()
        try store.close()
        #expect(try Self.storedImages(path) == [image.databaseValue])
        let reopened = try SQLiteObjectStore(path: path, model: model)
        #expect(try reopened.value("image", of: photo) == .binary(image))
        try reopened.close()
    }
}

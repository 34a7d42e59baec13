import DataModel
import Foundation
import GRDB
import ModelDiff
import Testing
import VersionHashes
@testable import SQLiteStore

/// A store migrated in place across an entity rename, as Core Data leaves it (seen in
/// CoreDataPlus's `SampleModel_V2.sqlite`, migrated from V1 where V2 renamed
/// `ExpensiveSportCar` to `LuxuryCar` with a renaming identifier): `Z_PRIMARYKEY` keeps the old
/// name, while the metadata's hashes name `LuxuryCar` and equal V2's. Built here: a store
/// written for V1, its metadata then given Core Data's keys with V2's hashes.
@Suite struct RenamedEntityStoreTests {
    static func cars(_ luxury: String) -> String {
        """
        <entity name="Car" representedClassName="Car">
            <attribute name="maker" optional="YES" attributeType="String"/>
            <attribute name="numberPlate" attributeType="String"/>
            <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="cars" inverseEntity="Person"/>
        </entity>
        <entity name="SportCar" representedClassName="SportCar" parentEntity="Car"/>
        \(luxury)
        <entity name="Person" representedClassName="Person">
            <attribute name="firstName" attributeType="String"/>
            <relationship name="cars" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Car" inverseName="owner" inverseEntity="Car"/>
        </entity>
        """
    }
    static let version1 = cars("<entity name=\"ExpensiveSportCar\" representedClassName=\"ExpensiveSportCar\" parentEntity=\"SportCar\"><attribute name=\"isLimitedEdition\" optional=\"YES\" attributeType=\"Boolean\" usesScalarValueType=\"YES\"/></entity>")
    static let version2 = cars("<entity name=\"LuxuryCar\" representedClassName=\"LuxuryCar\" parentEntity=\"SportCar\" elementID=\"ExpensiveSportCar\"><attribute name=\"isLimitedEdition\" optional=\"YES\" attributeType=\"Boolean\" usesScalarValueType=\"YES\"/></entity>")
    /// V2 without the renaming identifier: the same hashes (it is not hashed), so the store's
    /// metadata vouches for it although `Z_PRIMARYKEY`'s name matches nothing in it.
    static let version2WithoutRenamingID = version2.replacingOccurrences(of: " elementID=\"ExpensiveSportCar\"", with: "")

    /// The store, and V2 (both loaded as versions of one bundle).
    static func migratedStore(in scratch: ScratchDirectory) throws -> (path: String, bundle: BundleVersions) {
        let bundlePath = scratch.path("SampleModel.xcdatamodeld")
        for (name, body) in [("SampleModel", version1), ("SampleModel2", version2)] {
            let folder = bundlePath + "/\(name).xcdatamodel"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let contents = """
                <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
                <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                \(body)
                </model>
                """
            try Data(contents.utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        }
        let bundle = try #require(BundleVersions.read(bundle: bundlePath, loader: ModelLoader()).bundle)
        let v1 = try #require(bundle.versions.first { $0.version.name == "SampleModel" })
        let v2 = try #require(bundle.versions.first { $0.version.name == "SampleModel2" })
        let path = scratch.path("SampleModel_V2.sqlite")
        let store = try SQLiteObjectStore(path: path, model: v1)
        let person = try store.insert("Person", values: ["firstName": .string("Alessandro")])
        let car = try store.insert("ExpensiveSportCar", values: ["numberPlate": .string("300"), "isLimitedEdition": .bool(true)])
        try store.link(car, "owner", to: person)
        try store.save()
        try store.close()
        // What Core Data's migration leaves: its own metadata keys with V2's hashes, and the old
        // name in Z_PRIMARYKEY.
        var hashes: [String: Data] = [:]
        for (name, hash) in VersionHasher.hashes(of: v2).entityHashesByName { hashes[name] = Data(hash.bytes) }
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreUUID": "5B0E3D1C-0000-4000-8000-000000000001",
            "NSPersistenceFrameworkVersion": 1044, "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""], "NSStoreModelVersionHashes": hashes,
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [data])
            #expect(try String.fetchOne(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_ENT = 3") == "ExpensiveSportCar")
        }
        try queue.close()
        return (path, bundle)
    }

    @Test func theStoreIsIdentifiedByItsHashesAndReadByEntityNumber() throws {
        let scratch = try ScratchDirectory()
        let (path, bundle) = try Self.migratedStore(in: scratch)
        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let description = try StoreFileDescription.read(path: path)
        #expect(description.writer == .coreData)
        #expect(description.entities.map(\.name).contains("ExpensiveSportCar"))
        let match = StoreVersionMatch(file: description, versions: bundle.versions)
        #expect(match.method == .versionHashes)
        #expect(match.matches.map(\.model.version.name) == ["SampleModel2"])
        #expect(match.storeHashes?.count == 4)

        // Read with V2, with and without the renaming identifier: rows by entity number.
        let withoutID = try TestModels.model(Self.version2WithoutRenamingID)
        for model in [bundle.current, withoutID] {
            let store = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
            let dump = try store.dump()
            try store.close()
            #expect(dump.store.entities.map(\.name) == ["Car", "SportCar", "LuxuryCar", "Person"])
            #expect(dump.objects.map(\.entity).sorted() == ["LuxuryCar", "Person"])
        }
        // V1 (whose name Z_PRIMARYKEY keeps) does not hash like the store.
        #expect(!StoreHashIdentity.matches(description, try #require(bundle.versions.first)))
        // And the current version opens it as it is.
        let check = StoreCheck(file: description, bundle: bundle)
        #expect(check.outcome == .opens)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }

    /// Without hashes to vouch for it, a name Z_PRIMARYKEY keeps that the model does not know
    /// (and no renaming identifier names) is still a difference.
    @Test func withoutVouchingHashesAnUnknownNameIsADifference() throws {
        let scratch = try ScratchDirectory()
        let (path, _) = try Self.migratedStore(in: scratch)
        let description = try StoreFileDescription.read(path: path)
        let schema = try StoreSchema(model: try TestModels.model(Self.version2WithoutRenamingID))
        #expect(schema.differences(from: description) == ["entity 3 is 'ExpensiveSportCar' in the file, 'LuxuryCar' in the model"])
        #expect(schema.differences(from: description, namesAreVouchedFor: true).isEmpty)
    }
}

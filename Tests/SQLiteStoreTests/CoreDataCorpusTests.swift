import DataModel
import Foundation
import GRDB
import ModelDiff
import Testing
@testable import SQLiteStore

/// Stores Core Data itself wrote, committed as test fixtures by public projects, beside the
/// model bundles whose versions wrote them (`docs/sqlite-store.md`, "Observed in real
/// stores"). The corpus lives outside the repository; without it these tests skip. They work
/// on copies, and check that the copies are byte-identical afterwards.
@Suite struct CoreDataCorpusTests {
    static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/stores")

    static var corpusIsPresent: Bool { FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path) }

    struct Case: CustomStringConvertible, Sendable {
        /// The store, relative to the corpus.
        var store: String
        /// The bundle holding the version that wrote it, and that version's name.
        var bundle: String
        var version: String
        var description: String { (store as NSString).lastPathComponent }
    }

    static let easyLifeBundle = "larromba__EasyLife/EasyLife/EasyLife.xcdatamodeld"
    /// The 1.3.0 version as shipped, before it was edited in the repository.
    static let shippedEasyLifeBundle = "larromba__EasyLife/as-of-a31ea73/EasyLife/EasyLife.xcdatamodeld"

    static let cases = [
        Case(store: "bignerdranch__CoreDataStack/Sample Model/Deprecated/TestModel.sqlite",
             bundle: "bignerdranch__CoreDataStack/Sample Model/Deprecated/Sample.xcdatamodeld", version: "TestModel"),
        Case(store: "larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite", bundle: easyLifeBundle, version: "EasyLife 1.5.0"),
        Case(store: "larromba__EasyLife/EasyLifeTests/EasyLife 1.3.0.sqlite", bundle: shippedEasyLifeBundle, version: "EasyLife 1.3.0"),
        Case(store: "larromba__EasyLife/EasyLifeTests/EasyLife.sqlite", bundle: shippedEasyLifeBundle, version: "EasyLife 1.3.0"),
        Case(store: "hwaxxer__BookMigration/BookMigration/Model1.sqlite",
             bundle: "hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld", version: "Model1"),
        Case(store: "designatednerd__FlickrSearcher/3-Lab/LabSolution/FlickrSearcherTests/old_datbase_files/starter_database/starter_database.sqlite",
             bundle: "designatednerd__FlickrSearcher/3-Lab/LabSolution/FlickrSearcher/CoreData/FlickrSearcher.xcdatamodeld",
             version: "FlickrSearcher"),
    ]

    /// A copy of a store with its `-wal` and `-shm`, and the bytes of each file as copied.
    final class StoreCopy {
        let scratch: ScratchDirectory
        let path: String
        let original: [String: Data]

        init(_ relative: String) throws {
            scratch = try ScratchDirectory()
            let source = CoreDataCorpusTests.corpus.appendingPathComponent(relative).path
            path = scratch.path((relative as NSString).lastPathComponent)
            var original: [String: Data] = [:]
            for suffix in ["", "-wal", "-shm"] where FileManager.default.fileExists(atPath: source + suffix) {
                try FileManager.default.copyItem(atPath: source + suffix, toPath: path + suffix)
                original[suffix] = try Data(contentsOf: URL(fileURLWithPath: path + suffix))
            }
            self.original = original
        }

        /// Every file in the directory, with its bytes: equal to `original` when nothing changed.
        func current() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) {
                let suffix = String(name.dropFirst((path as NSString).lastPathComponent.count))
                files[suffix] = try Data(contentsOf: scratch.url.appendingPathComponent(name))
            }
            return files
        }
    }

    static func versions(_ bundle: String) -> [Model] {
        ModelLoader(loadsAllVersions: true).load(paths: [corpus.appendingPathComponent(bundle).path]).models
    }

    static func model(_ bundle: String, version: String) throws -> Model {
        try #require(versions(bundle).first { $0.version.name == version })
    }

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"), arguments: cases)
    func dumpsEveryObjectWithTheVersionThatWroteIt(_ corpusCase: Case) throws {
        let copy = try StoreCopy(corpusCase.store)
        let description = try StoreFileDescription.read(path: copy.path)
        #expect(description.writer == .coreData)
        #expect(description.summary.hasPrefix("a Core Data store written by framework version \(description.frameworkVersion ?? "?")"))
        let store = try SQLiteObjectStore(path: copy.path, model: try Self.model(corpusCase.bundle, version: corpusCase.version),
                                          access: .readOnly)
        let dump = try store.dump()
        try store.close()
        // Per-entity object counts are the rows SQLite holds per Z_ENT.
        var expected: [String: Int] = [:]
        for entity in description.entities { expected[entity.name] = description.rowCounts[entity.number] ?? 0 }
        var dumped: [String: Int] = [:]
        for entity in dump.store.entities { dumped[entity.name] = entity.objects }
        #expect(dumped == expected)
        #expect(dump.objects.count == description.rowCounts.values.reduce(0, +))
        #expect(try copy.current() == copy.original)
    }

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"), arguments: cases)
    func whichVersionNamesTheVersionThatWroteIt(_ corpusCase: Case) throws {
        let copy = try StoreCopy(corpusCase.store)
        let match = StoreVersionMatch(file: try StoreFileDescription.read(path: copy.path), versions: Self.versions(corpusCase.bundle))
        #expect(match.matches.map(\.model.version.name) == [corpusCase.version])
        // By the hashes Core Data wrote into the metadata, not by structure.
        #expect(match.method == .versionHashes)
        #expect(match.storeHashes?.isEmpty == false)
        #expect(try copy.current() == copy.original)
    }

    /// The 1.3.0 version in the repository was edited after its store was written (it gained
    /// `Project.todoItem`/`TodoItem.project`): no version of that bundle wrote the store.
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func anEditedShippedVersionIsNotTakenForTheOneThatWroteTheStore() throws {
        let copy = try StoreCopy("larromba__EasyLife/EasyLifeTests/EasyLife 1.3.0.sqlite")
        let match = StoreVersionMatch(file: try StoreFileDescription.read(path: copy.path), versions: Self.versions(Self.easyLifeBundle))
        #expect(match.matches.isEmpty)
        #expect(match.method == .versionHashes)
        let closest = try #require(match.candidates.first)
        #expect(closest.model.version.name == "EasyLife 1.3.0")
        // Both entities hash differently (the added relationship and its inverse), and the
        // layout ranks the edited version closest.
        #expect(closest.entityDifferences.map(\.entity) == ["Project", "TodoItem"])
        #expect(closest.layoutDifferences == ["ZTODOITEM has no column ZPROJECT"])
    }

    struct CheckCase: CustomStringConvertible, Sendable {
        var store: String
        var bundle: String
        var outcome: StoreCheck.Outcome
        var errorCode: Int?
        var storeVersion: String?
        var closestVersion: String?
        var description: String { (store as NSString).lastPathComponent + " with " + (bundle as NSString).lastPathComponent }
    }

    /// What each real store does when its app opens it with the bundle's current version.
    static let checkCases = [
        CheckCase(store: cases[0].store, bundle: cases[0].bundle, outcome: .migrates, storeVersion: "TestModel"),
        CheckCase(store: cases[1].store, bundle: easyLifeBundle, outcome: .opens, storeVersion: "EasyLife 1.5.0"),
        // Written by 1.3.0 before it was edited: no version of today's bundle hashes like them.
        CheckCase(store: cases[2].store, bundle: easyLifeBundle, outcome: .fails, errorCode: 134130, closestVersion: "EasyLife 1.3.0"),
        CheckCase(store: cases[3].store, bundle: easyLifeBundle, outcome: .fails, errorCode: 134130, closestVersion: "EasyLife 1.3.0"),
        // With the bundle as 1.3.0 shipped, the same store opens.
        CheckCase(store: cases[3].store, bundle: shippedEasyLifeBundle, outcome: .opens, storeVersion: "EasyLife 1.3.0"),
        CheckCase(store: cases[4].store, bundle: cases[4].bundle, outcome: .migrates, storeVersion: "Model1"),
        CheckCase(store: cases[5].store, bundle: cases[5].bundle, outcome: .migrates, storeVersion: "FlickrSearcher"),
    ]

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"), arguments: checkCases)
    func checkPredictsWhatTheAppDoes(_ checkCase: CheckCase) throws {
        let copy = try StoreCopy(checkCase.store)
        let reading = BundleVersions.read(bundle: Self.corpus.appendingPathComponent(checkCase.bundle).path, loader: ModelLoader())
        let bundle = try #require(reading.bundle)
        let check = StoreCheck(file: try StoreFileDescription.read(path: copy.path), bundle: bundle)
        #expect(check.method == .versionHashes)
        #expect(check.outcome == checkCase.outcome, "\(check.summary)")
        #expect(check.errorCode == checkCase.errorCode)
        #expect(check.storeVersion == checkCase.storeVersion)
        #expect(check.closestVersion == checkCase.closestVersion)
        if checkCase.errorCode == 134130 {
            #expect(check.differingEntities.map(\.entity) == ["Project", "TodoItem"])
            #expect(check.summary.hasPrefix("fails with 134130: no version in the bundle hashes like the store"))
        }
        if checkCase.outcome == .migrates { #expect(check.migration?.verdict == .lightweight) }
        #expect(try copy.current() == copy.original)
    }

    /// A required attribute added without a default fails (134110) on the stored rows of its
    /// entity, unless a mapping model covers the pair: the developer's migration gives the value
    /// (`SchemaDiff.failure`, as `lint` and `versions` judge it; `store check` once said 134110).
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func aRequiredAttributeAddedWithoutDefaultFailsOnStoredRowsUnlessAMappingModelCoversThePair() throws {
        let copy = try StoreCopy("larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite")
        let scratch = try ScratchDirectory()
        let bundlePath = scratch.path("EasyLife.xcdatamodeld")
        try FileManager.default.copyItem(atPath: Self.corpus.appendingPathComponent(Self.easyLifeBundle).path, toPath: bundlePath)
        let shipped = try String(contentsOfFile: bundlePath + "/EasyLife 1.5.0.xcdatamodel/contents", encoding: .utf8)
        let todoItem = #"<entity name="TodoItem" representedClassName=".TodoItem" syncable="YES" codeGenerationType="class">"#
        #expect(shipped.contains(todoItem))
        try FileManager.default.createDirectory(atPath: bundlePath + "/EasyLife 2.xcdatamodel", withIntermediateDirectories: false)
        try shipped.replacingOccurrences(of: todoItem, with: todoItem + #"<attribute name="due" attributeType="Date" syncable="YES"/>"#)
            .write(toFile: bundlePath + "/EasyLife 2.xcdatamodel/contents", atomically: true, encoding: .utf8)
        try #"<plist version="1.0"><dict><key>_XCCurrentVersionName</key><string>EasyLife 2.xcdatamodel</string></dict></plist>"#
            .write(toFile: bundlePath + "/.xccurrentversion", atomically: true, encoding: .utf8)
        let bundle = try #require(BundleVersions.read(bundle: bundlePath, loader: ModelLoader()).bundle)
        #expect(bundle.current.version.name == "EasyLife 2")
        let description = try StoreFileDescription.read(path: copy.path)

        let inferred = StoreCheck(file: description, bundle: bundle)
        #expect(inferred.migration?.failure == .missingRequiredValue)
        #expect(inferred.outcome == .fails && inferred.errorCode == 134110, "\(inferred.summary)")
        #expect(inferred.failingEntities == ["TodoItem"])

        let mappingModel = scratch.path("ToEasyLife2.xcmappingmodel")
        let mapped = StoreCheck(file: description, bundle: bundle, mappings: MappingModels(documents: [mappingModel:
            "EasyLife.xcdatamodeld/EasyLife 1.5.0.xcdatamodel EasyLife.xcdatamodeld/EasyLife 2.xcdatamodel"]))
        #expect(mapped.migration?.failure == nil)
        #expect(mapped.outcome == .migrates && mapped.errorCode == nil)
        #expect(mapped.summary == "migrates from 'EasyLife 1.5.0' to the current version 'EasyLife 2' with the mapping model '\(mappingModel)'")
        #expect(try copy.current() == copy.original)
    }

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"), arguments: cases)
    func writingIsRefusedUnlessAskedAndLeavesTheFileAlone(_ corpusCase: Case) throws {
        let copy = try StoreCopy(corpusCase.store)
        let model = try Self.model(corpusCase.bundle, version: corpusCase.version)
        #expect {
            try SQLiteObjectStore(path: copy.path, model: model)
        } throws: { error in
            let message = (error as? SQLiteStoreError)?.message ?? ""
            return message.contains("is a Core Data store written by framework version")
                && message.contains("does not write to a store it did not create")
        }
        #expect(try copy.current() == copy.original)
    }

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func theWrongVersionIsRefusedWithTheDifference() throws {
        let copy = try StoreCopy("hwaxxer__BookMigration/BookMigration/Model1.sqlite")
        let model3 = try Self.model("hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld", version: "Model3")
        #expect {
            try SQLiteObjectStore(path: copy.path, model: model3, access: .readOnly)
        } throws: { error in
            let message = (error as? SQLiteStoreError)?.message ?? ""
            return message.contains("written by another version of the model") && message.contains("which-version")
        }
        #expect(try copy.current() == copy.original)
    }

    /// The many-to-many of an entity to itself reads from `Z_2BLOCKING(Z_2BLOCKEDBY, Z_2BLOCKING)`.
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func aManyToManyOfAnEntityToItselfReadsFromCoreDatasJoinTable() throws {
        let copy = try StoreCopy("larromba__EasyLife/EasyLifeTests/EasyLife 1.5.0.sqlite")
        let model = try Self.model(Self.easyLifeBundle, version: "EasyLife 1.5.0")
        let schema = try StoreSchema(model: model)
        #expect(schema.joinTables.map(\.name.name) == ["Z_2BLOCKING"])
        #expect(schema.joinTables.map { [$0.ownerColumn.name, $0.memberColumn.name] } == [["Z_2BLOCKEDBY", "Z_2BLOCKING"]])
        let store = try SQLiteObjectStore(path: copy.path, model: model, access: .readOnly)
        defer { try? store.close() }
        for item in try store.fetch("TodoItem") {
            #expect(try store.related(item, "blocking").isEmpty)
        }
    }

    /// With explicit permission, an update of one attribute of a Core Data row leaves every
    /// other column as Core Data wrote it (here a Transformable's archived bytes).
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func anExplicitWriteChangesOnlyTheColumnItSets() throws {
        let copy = try StoreCopy("hwaxxer__BookMigration/BookMigration/Model1.sqlite")
        let model = try Self.model("hwaxxer__BookMigration/BookMigration/Model.xcdatamodeld", version: "Model1")
        func rows() throws -> [[DatabaseValue]] {
            let queue = try DatabaseQueue(path: copy.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT Z_PK, ZUSER, ZAUTHORNAME, ZTITLE, ZFILEURL FROM ZBOOK ORDER BY Z_PK").map { Array($0.databaseValues) }
            }
        }
        let before = try rows()
        let store = try SQLiteObjectStore(path: copy.path, model: model, access: .readWriteIncludingCoreDataStores)
        let book = try #require(try store.fetch("Book").first)
        try store.set("title", of: book, to: .string("Renamed"))
        try store.save()
        try store.close()
        let after = try rows()
        #expect(after.count == before.count)
        for (old, new) in zip(before, after) {
            if old[0] == book.primaryKey.databaseValue {
                #expect(new[3] == "Renamed".databaseValue)
                #expect(Array(new[0...2]) + [new[4]] == Array(old[0...2]) + [old[4]])
            } else {
                #expect(new == old)
            }
        }
    }
}

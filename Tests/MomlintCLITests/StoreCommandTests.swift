import Foundation
import GRDB
import Testing

/// `momlint store dump` and `momlint store which-version` end to end. The Core Data stores
/// come from the corpus beside the repository (skipped when it is absent), copied first.
@Suite struct StoreCommandTests {
    static let corpus = MomlintProcess.packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/stores")
    static let corpusIsPresent = FileManager.default.fileExists(atPath: corpus.appendingPathComponent("MANIFEST.tsv").path)
    static let easyLife = corpus.appendingPathComponent("larromba__EasyLife")

    /// A copy of `EasyLife 1.5.0.sqlite` in its own folder, and the folder's files' bytes.
    static func copiedStore() throws -> (folder: URL, store: String, files: () throws -> [String: Data]) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("EasyLife 1.5.0.sqlite").path
        try FileManager.default.copyItem(atPath: easyLife.appendingPathComponent("EasyLifeTests/EasyLife 1.5.0.sqlite").path, toPath: store)
        let files = {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
                files[name] = try Data(contentsOf: folder.appendingPathComponent(name))
            }
            return files
        }
        return (folder, store, files)
    }

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func whichVersionNamesTheVersionAndLeavesTheFileAlone() throws {
        let (folder, store, files) = try Self.copiedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try files()
        let output = try MomlintProcess.run(["store", "which-version", store, Self.easyLife.appendingPathComponent("EasyLife/EasyLife.xcdatamodeld").path])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.hasPrefix("\(store): a Core Data store written by framework version 849, entities Project (1), TodoItem (2)\n"
            + "written by version 'EasyLife 1.5.0' ("))
        #expect(try files() == before)
    }

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func whichVersionWithoutAMatchListsTheClosestAndExitsOne() throws {
        let (folder, store, _) = try Self.copiedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = try MomlintProcess.run(["store", "which-version", store,
                                             Self.easyLife.appendingPathComponent("as-of-a31ea73/EasyLife/EasyLife.xcdatamodeld").path])
        #expect(output.status == 1)
        #expect(output.standardOutput.contains("hashes like this store (migrating it fails with 134130); closest first:\n"
            + "  'EasyLife 1.3.0': 2 entity hashes differ\n"))
        #expect(output.standardOutput.contains("    - 'Project' hashes BSPEE/yN… in the store, XpALbFSd… in the version\n"))
        #expect(output.standardOutput.contains("    - layout: the file has table Z_2BLOCKING, which the model does not\n"))
    }

    /// `store check`: EasyLife's `EasyLife.sqlite` was written by 1.3.0 before that version was
    /// edited, so today's bundle has no version hashing like it: 134130, exit 1.
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func checkNames134130ForAStoreOfAnEditedVersion() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("EasyLife.sqlite").path
        try FileManager.default.copyItem(atPath: Self.easyLife.appendingPathComponent("EasyLifeTests/EasyLife.sqlite").path, toPath: store)
        let before = try Data(contentsOf: URL(fileURLWithPath: store))
        let bundle = Self.easyLife.appendingPathComponent("EasyLife/EasyLife.xcdatamodeld").path
        let text = try MomlintProcess.run(["store", "check", store, bundle])
        #expect(text.status == 1, "\(text.standardError)")
        #expect(text.standardOutput.contains("\(store): fails with 134130: no version in the bundle hashes like the store "
            + "(it was written by a version edited since, or by one the bundle no longer has); closest is 'EasyLife 1.3.0' "
            + "(its layout differs from the store's in 1 way): 'Project' hashes XpALbFSd… in the store, BSPEE/yN… in the version; "
            + "'TodoItem' hashes egDJI1GF… in the store, AEOyYTy0… in the version\n"), "\(text.standardOutput)")
        let json = try MomlintProcess.run(["store", "check", store, bundle, "--format", "json"])
        #expect(json.status == 1)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["outcome"] as? String == "fails")
        #expect(document["errorCode"] as? Int == 134130)
        #expect(document["identifiedBy"] as? String == "version hashes")
        #expect(document["closestVersion"] as? String == "EasyLife 1.3.0")
        #expect((document["differingEntities"] as? [[String: Any]])?.map { $0["entity"] as? String } == ["Project", "TodoItem"])
        #expect(try Data(contentsOf: URL(fileURLWithPath: store)) == before)

        // The store of 1.5.0, the current version, opens as it is: exit 0.
        let (copyFolder, current, _) = try Self.copiedStore()
        defer { try? FileManager.default.removeItem(at: copyFolder) }
        let opens = try MomlintProcess.run(["store", "check", current, bundle])
        #expect(opens.status == 0)
        #expect(opens.standardOutput.contains("opens with the current version 'EasyLife 1.5.0' as it is: every entity hash matches\n"))
        // A bad bundle is bad input: exit 2.
        #expect(try MomlintProcess.run(["store", "check", current, folder.path]).status == 2)
    }

    /// Given a bundle, `store dump` reads with the version whose hashes match the store's.
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func dumpWithABundleReadsWithTheVersionThatHashesLikeTheStore() throws {
        let bundle = Self.bookMigration.appendingPathComponent("Model.xcdatamodeld").path
        let (folder, store) = try Self.changedModel1("SELECT 1")
        defer { try? FileManager.default.removeItem(at: folder) }
        let dump = try MomlintProcess.run(["store", "dump", store, "--model", bundle, "--format", "text"])
        #expect(dump.status == 0, "\(dump.standardError)")
        #expect(dump.standardError.contains("reading with version 'Model1': every entity hash matches the store's"))
        #expect(dump.standardOutput.contains("  Book (entity 1): "))
    }

    /// A title holding DEL (and nothing else beyond ASCII): JSON's encoder leaves DEL raw, and a
    /// terminal reading the dump must get it escaped, as every other terminal-acting character.
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func dumpEscapesDELInJSON() throws {
        let (folder, store) = try Self.changedModel1("UPDATE ZBOOK SET ZTITLE = 'a' || char(127) || 'b'")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = Self.bookMigration.appendingPathComponent("Model.xcdatamodeld/Model1.xcdatamodel").path
        let dump = try MomlintProcess.run(["store", "dump", store, "--model", bundle, "--format", "json"])
        #expect(dump.status == 0, "\(dump.standardError)")
        #expect(dump.standardOutput.contains("a\\u007fb"))
        #expect(!dump.standardOutput.unicodeScalars.contains("\u{7F}"))
    }

    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func dumpPrintsEveryObjectAsJSON() throws {
        let (folder, store, files) = try Self.copiedStore()
        defer { try? FileManager.default.removeItem(at: folder) }
        let before = try files()
        let model = Self.easyLife.appendingPathComponent("EasyLife/EasyLife.xcdatamodeld/EasyLife 1.5.0.xcdatamodel").path
        let output = try MomlintProcess.run(["store", "dump", store, "--model", model])
        #expect(output.status == 0, "\(output.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect(json["schemaVersion"] as? Int == 1)
        let metadata = try #require(json["store"] as? [String: Any])
        #expect(metadata["frameworkVersion"] as? String == "849")
        let objects = try #require(json["objects"] as? [[String: Any]])
        #expect(objects.count == 6)
        let first = try #require(objects.first)
        #expect(first["entity"] as? String == "TodoItem")
        #expect(first["id"] as? String == "x-coredata://F76F1F4C-F2BC-41B5-A4BF-799AB57815F1/TodoItem/p1")
        #expect((first["values"] as? [String: Any])?["name"] as? String == "call landlord")
        // Every digit the store holds (541369085.083766), not rounded to milliseconds.
        #expect((first["values"] as? [String: Any])?["date"] as? String == "2018-02-26T20:18:05.083766Z")
        #expect((first["relationships"] as? [String: Any])?["blocking"] as? [String] == [])

        let text = try MomlintProcess.run(["store", "dump", store, "--model", model, "--format", "text"])
        #expect(text.status == 0)
        #expect(text.standardOutput.contains("  TodoItem (entity 2): 6 objects\n"))
        #expect(try files() == before)
    }

    static let bookMigration = corpus.appendingPathComponent("hwaxxer__BookMigration/BookMigration")

    /// A copy of `Model1.sqlite` (a rollback-journal store) in its own folder, changed by `sql`.
    static func changedModel1(_ sql: String) throws -> (folder: URL, store: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let store = folder.appendingPathComponent("Model1.sqlite").path
        try FileManager.default.copyItem(atPath: bookMigration.appendingPathComponent("Model1.sqlite").path, toPath: store)
        let queue = try DatabaseQueue(path: store)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
        return (folder, store)
    }

    /// A store that tracks persistent history lists Core Data's own entities in Z_PRIMARYKEY
    /// (16001–16003 in real stores) beside its history tables: neither is the model's.
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func aStoreWithPersistentHistoryDumpsAndIsMatched() throws {
        let (folder, store) = try Self.changedModel1("""
            CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP TIMESTAMP);
            CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER);
            CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
            INSERT INTO Z_PRIMARYKEY VALUES (16001,'CHANGE',0,1),(16002,'TRANSACTION',0,1),(16003,'TRANSACTIONSTRING',0,1);
            """)
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = Self.bookMigration.appendingPathComponent("Model.xcdatamodeld")
        let dump = try MomlintProcess.run(["store", "dump", store, "--model", bundle.appendingPathComponent("Model1.xcdatamodel").path,
                                           "--format", "text"])
        #expect(dump.status == 0, "\(dump.standardError)")
        #expect(dump.standardOutput.hasPrefix("\(store): a Core Data store written by framework version 419, entities Book (1), User (2); "
            + "Core Data's own: CHANGE (16001), TRANSACTION (16002), TRANSACTIONSTRING (16003)\n  Book (entity 1): "))
        let which = try MomlintProcess.run(["store", "which-version", store, bundle.path])
        #expect(which.status == 0, "\(which.standardOutput)")
        #expect(which.standardOutput.contains("written by version 'Model1' ("))
    }

    /// A value the store cannot mean (a foreign key holding text) is one line and exit 2,
    /// not a crash.
    @Test(.enabled(if: corpusIsPresent, "the corpus of Core Data stores is absent"))
    func aForeignKeyHoldingTextExitsTwoWithOneLineNamingIt() throws {
        let (folder, store) = try Self.changedModel1("UPDATE ZBOOK SET ZUSER = 'abc' WHERE Z_PK = (SELECT MIN(Z_PK) FROM ZBOOK)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try DatabaseQueue(path: store).read { db in try Int.fetchOne(db, sql: "SELECT MIN(Z_PK) FROM ZBOOK") ?? 0 }
        let model = Self.bookMigration.appendingPathComponent("Model.xcdatamodeld/Model1.xcdatamodel").path
        let output = try MomlintProcess.run(["store", "dump", store, "--model", model])
        #expect(output.status == 2)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == "\(store): error: row \(key) of ZBOOK has ZUSER 'abc' (text), which is not a primary key (a whole number)\n")
    }

    @Test func aFileThatIsNotADatabaseExitsTwoWithOneLine() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("notes.sqlite").path
        try Data("just some notes\n".utf8).write(to: URL(fileURLWithPath: path))
        let output = try MomlintProcess.run(["store", "dump", path, "--model", "Fixtures/Models/Conformance/Library.xcdatamodeld"])
        #expect(output.status == 2)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == "\(path): error: '\(path)' is not an SQLite database "
            + "(no 'SQLite format 3' header; an encrypted database looks like this too)\n")
        let which = try MomlintProcess.run(["store", "which-version", path, "Fixtures/Models/Conformance/Library.xcdatamodeld"])
        #expect(which.status == 2)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("just some notes\n".utf8))
    }
}

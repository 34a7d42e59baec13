import Conformance
import DataModel
import Foundation
import GRDB
import Testing
import VersionHashes
@testable import SQLiteStore

/// Files momlint did not create: recognised before anything writes, refused with one clear
/// line, and left byte-identical (main file, `-wal`, `-shm`, and no new files beside them).
@Suite struct ForeignFileTests {
    /// Every file in the directory with its bytes.
    static func files(in scratch: ScratchDirectory) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: scratch.url.path) {
            files[name] = try Data(contentsOf: scratch.url.appendingPathComponent(name))
        }
        return files
    }

    static func refusal(_ path: String, access: SQLiteObjectStore.Access = .readWrite) throws -> String {
        do {
            _ = try SQLiteObjectStore(path: path, model: TestModels.company(), access: access)
        } catch let error as SQLiteStoreError {
            return error.message
        }
        Issue.record("'\(path)' was opened")
        return ""
    }

    /// A WAL-mode database whose data is still in its `-wal`, copied without its `-shm`, as a
    /// file pulled from a device may come. A plain read-only SQLite open would create the `-shm`.
    @Test func aWALFileWithoutItsShmIsReadWithoutCreatingOrChangingAnything() throws {
        let source = try ScratchDirectory()
        let path = source.path("Company.sqlite")
        let store = try SQLiteObjectStore(path: path, model: TestModels.company())
        try store.insert("Department", values: ["name": .string("Sales")])
        try store.save()
        // The store is still open, so its last save is in the -wal, not yet checkpointed.
        let scratch = try ScratchDirectory()
        let copy = scratch.path("Company.sqlite")
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try FileManager.default.copyItem(atPath: path + "-wal", toPath: copy + "-wal")
        try store.close()
        let before = try Self.files(in: scratch)
        #expect(before.keys.sorted() == ["Company.sqlite", "Company.sqlite-wal"])

        let description = try StoreFileDescription.read(path: copy)
        #expect(description.writer == .momlint)
        let reader = try SQLiteObjectStore(path: copy, model: TestModels.company(), access: .readOnly)
        #expect(try reader.fetch("Department").count == 1)
        #expect(throws: SQLiteStoreError.self) { try reader.insert("Department") }
        try reader.close()
        #expect(try Self.files(in: scratch) == before)
    }

    /// A WAL-mode file closed cleanly (no `-wal`, no `-shm`), as most stores come, is read in
    /// place without a copy, and still nothing is created beside it.
    @Test func aCleanlyClosedWALFileIsReadWithoutCreatingItsWALOrShm() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let store = try SQLiteObjectStore(path: path, model: TestModels.company())
        try store.insert("Department", values: ["name": .string("Sales")])
        try store.save()
        try store.close()
        let before = try Self.files(in: scratch)
        #expect(before.keys.sorted() == ["Company.sqlite"])
        let reader = try SQLiteObjectStore(path: path, model: TestModels.company(), access: .readOnly)
        #expect(try reader.fetch("Department").count == 1)
        #expect(try reader.dump().objects.count == 1)
        try reader.close()
        #expect(try Self.files(in: scratch) == before)
    }

    @Test func aTextFileIsNotADatabase() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        let before = try Self.files(in: scratch)
        #expect(try Self.refusal(path, access: .readOnly)
            == "'\(path)' is not an SQLite database (no 'SQLite format 3' header; an encrypted database looks like this too)")
        #expect(try Self.files(in: scratch) == before)
    }

    @Test func aTruncatedDatabaseIsRefused() throws {
        let source = try ScratchDirectory()
        try SQLiteObjectStore(path: source.path("Company.sqlite"), model: TestModels.company()).close()
        let bytes = try Data(contentsOf: URL(fileURLWithPath: source.path("Company.sqlite")))
        let scratch = try ScratchDirectory()
        let headerOnly = scratch.path("header.sqlite"), firstPage = scratch.path("page.sqlite")
        try bytes.prefix(60).write(to: URL(fileURLWithPath: headerOnly))
        try bytes.prefix(4096).write(to: URL(fileURLWithPath: firstPage))
        let before = try Self.files(in: scratch)
        #expect(try Self.refusal(headerOnly) == "'\(headerOnly)' is a truncated SQLite database (60 bytes, shorter than its 100-byte header)")
        #expect(try Self.refusal(firstPage).hasPrefix("'\(firstPage)' is a truncated SQLite database (4096 bytes; its header says "))
        #expect(try Self.files(in: scratch) == before)
    }

    @Test func anSQLiteDatabaseThatIsNoStoreIsRefusedUnchanged() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("other.sqlite")
        // A rollback-journal database: opening it must not convert it to WAL.
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT); INSERT INTO notes (body) VALUES ('x')") }
        try queue.close()
        let before = try Self.files(in: scratch)
        #expect(try Self.refusal(path)
            == "'\(path)' is an SQLite database but not a Core Data or momlint store (no Z_METADATA and Z_PRIMARYKEY tables)")
        #expect(try Self.files(in: scratch) == before)
    }

    @Test func anEncryptedLookingFileIsRefused() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("secret.sqlite")
        // An SQLCipher database has no plain header: its first bytes are random.
        try Data((0..<8192).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }).write(to: URL(fileURLWithPath: path))
        let before = try Self.files(in: scratch)
        #expect(try Self.refusal(path)
            == "'\(path)' is not an SQLite database (no 'SQLite format 3' header; an encrypted database looks like this too)")
        #expect(try Self.files(in: scratch) == before)
    }

    @Test func aDamagedDatabaseIsRefused() throws {
        let source = try ScratchDirectory()
        try SQLiteObjectStore(path: source.path("Company.sqlite"), model: TestModels.company()).close()
        var bytes = try Data(contentsOf: URL(fileURLWithPath: source.path("Company.sqlite")))
        // Overwrite the schema page's content after its header.
        for offset in 100..<min(bytes.count, 4096) { bytes[offset] = 0xA5 }
        let scratch = try ScratchDirectory()
        let path = scratch.path("damaged.sqlite")
        try bytes.write(to: URL(fileURLWithPath: path))
        let before = try Self.files(in: scratch)
        let message = try Self.refusal(path)
        // The 100-byte header is intact, so the file is known to be SQLite: damaged, not foreign.
        #expect(message == "'\(path)' is a damaged SQLite database (database disk image is malformed)")
        #expect(try Self.files(in: scratch) == before)
    }
}

/// Binary and Transformable values reach the file and come back; a save rewrites only the
/// columns that changed.
@Suite struct BinaryValueTests {
    static let model = """
        <entity name="Book">
            <attribute name="cover" optional="YES" attributeType="Binary"/>
            <attribute name="settings" optional="YES" attributeType="Transformable"/>
            <attribute name="title" optional="YES" attributeType="String"/>
        </entity>
        """

    @Test func aBinaryValueSurvivesInsertUpdateOfAnotherAttributeSaveAndReopen() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Books.sqlite")
        let model = try TestModels.model(Self.model)
        let cover = Data((0..<277).map { UInt8(truncatingIfNeeded: $0 * 31) })
        let archive = Data("bplist00\u{0}archived".utf8)
        let book: ObjectID
        do {
            let store = try SQLiteObjectStore(path: path, model: model)
            book = try store.insert("Book", values: ["title": .string("Atlas"), "cover": .binary(cover), "settings": .binary(archive)])
            try store.save()
            try store.close()
        }
        do {
            let store = try SQLiteObjectStore(path: path, model: model)
            try store.set("title", of: book, to: .string("World Atlas"))
            try store.save()
            try store.close()
        }
        let store = try SQLiteObjectStore(path: path, model: model)
        defer { try? store.close() }
        #expect(try store.value("cover", of: book) == .binary(cover))
        #expect(try store.value("settings", of: book) == .binary(archive))
        #expect(try store.value("title", of: book) == .string("World Atlas"))
    }

    /// Every attribute type a value can be given survives a save and a reopen, and an update
    /// of one attribute leaves every other column byte for byte as it was.
    @Test func everyValueRoundTripsAndAnUpdateLeavesTheOtherColumnsAlone() throws {
        let model = try TestModels.model("""
            <entity name="Sample">
                <attribute name="small" optional="YES" attributeType="Integer 16"/>
                <attribute name="medium" optional="YES" attributeType="Integer 32"/>
                <attribute name="large" optional="YES" attributeType="Integer 64"/>
                <attribute name="amount" optional="YES" attributeType="Decimal"/>
                <attribute name="ratio" optional="YES" attributeType="Double"/>
                <attribute name="weight" optional="YES" attributeType="Float"/>
                <attribute name="flag" optional="YES" attributeType="Boolean"/>
                <attribute name="label" optional="YES" attributeType="String"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
                <attribute name="ref" optional="YES" attributeType="UUID"/>
                <attribute name="link" optional="YES" attributeType="URI"/>
                <attribute name="bytes" optional="YES" attributeType="Binary"/>
                <attribute name="archive" optional="YES" attributeType="Transformable"/>
            </entity>
            """)
        let values: [String: AttributeValue] = [
            "small": .integer(-32768), "medium": .integer(2_147_483_647), "large": .integer(Int64.min),
            "amount": .double(12.5), "ratio": .double(0.1), "weight": .double(Double(Float(1.1))),
            "flag": .bool(true), "label": .string("Ünïcödé ✓"), "when": .date(secondsSinceReferenceDate: 12.25),
            "ref": .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"), "link": .string("https://example.com/a?b=c"),
            "bytes": .binary(Data([0, 255, 0, 1])), "archive": .binary(Data("bplist00archive".utf8)),
        ]
        let scratch = try ScratchDirectory()
        let path = scratch.path("Samples.sqlite")
        let sample: ObjectID
        do {
            let store = try SQLiteObjectStore(path: path, model: model)
            sample = try store.insert("Sample", values: values)
            try store.save()
            try store.close()
        }
        func row() throws -> [String: DatabaseValue] {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM ZSAMPLE"))
                return Dictionary(uniqueKeysWithValues: row.columnNames.map { ($0, row[$0] as DatabaseValue) })
            }
        }
        let before = try row()
        let store = try SQLiteObjectStore(path: path, model: model)
        for (name, value) in values {
            #expect(try store.value(name, of: sample) == value, "\(name)")
        }
        try store.set("label", of: sample, to: .string("changed"))
        try store.save()
        try store.close()
        var after = try row()
        #expect(after.removeValue(forKey: "ZLABEL") == "changed".databaseValue)
        #expect(after.removeValue(forKey: "Z_OPT") == 2.databaseValue)
        var expected = before
        expected.removeValue(forKey: "ZLABEL")
        expected.removeValue(forKey: "Z_OPT")
        #expect(after == expected)
    }

    @Test func anUpdateWritesOnlyTheColumnsThatChanged() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Books.sqlite")
        let model = try TestModels.model(Self.model)
        let store = try SQLiteObjectStore(path: path, model: model)
        let book = try store.insert("Book", values: ["title": .string("Atlas")])
        try store.save()
        // Another writer puts a value in a column this store then leaves alone.
        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "UPDATE ZBOOK SET ZCOVER = x'0102'") }
        try other.close()
        try store.set("title", of: book, to: .string("World Atlas"))
        try store.save()
        #expect(try store.value("cover", of: book) == .binary(Data([1, 2])))
        try store.close()
    }
}

/// What a Core Data store holds besides the model's tables, built here from a momlint store
/// given Core Data's metadata, so these run without the corpus.
@Suite struct CoreDataStoreRecognitionTests {
    static let model = """
        <entity name="Author" renamingIdentifier="Writer">
            <attribute name="name" optional="YES" attributeType="String"/>
        </entity>
        """

    /// A store for `model` whose metadata is Core Data's (binary plist, no momlint keys),
    /// with `Author` recorded under its old name, `Z_MODELCACHE`, a derived-attribute trigger
    /// and, unless asked not to, persistent history as real stores keep it: the tables
    /// `ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING` and their entities 16001–16003 in
    /// `Z_PRIMARYKEY`.
    static func coreDataLikeStore(in scratch: ScratchDirectory, persistentHistory: Bool = true) throws -> String {
        let path = try coreDataLikeStore(at: scratch.path("Authors.sqlite"), model: TestModels.model(model),
                                         persistentHistory: persistentHistory) { store in
            try store.insert("Author", values: ["name": .string("Ada")])
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE Z_PRIMARYKEY SET Z_NAME = 'Writer' WHERE Z_ENT = 1;
                CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
                CREATE TRIGGER Z_DA_ZAUTHOR_Author_nameLength AFTER UPDATE OF ZNAME ON ZAUTHOR BEGIN SELECT 1; END;
                """)
        }
        try queue.close()
        return path
    }

    /// A momlint store of `model` filled by `fill` and saved, then given Core Data's metadata
    /// (a binary property list without momlint's keys) and, when asked, persistent history.
    static func coreDataLikeStore(at path: String, model: Model, persistentHistory: Bool,
                                  fill: (SQLiteObjectStore) throws -> Void) throws -> String {
        let store = try SQLiteObjectStore(path: path, model: model)
        try fill(store)
        try store.save()
        try store.close()
        // The model's own hashes, as Core Data writes them.
        var hashes: [String: Data] = [:]
        for (name, hash) in VersionHasher.hashes(of: model).entityHashesByName { hashes[name] = Data(hash.bytes) }
        let plist: [String: Any] = [
            "NSStoreType": "SQLite", "NSStoreUUID": "61FC2D16-6A9B-47E7-AD90-9013E066EC6C",
            "NSPersistenceFrameworkVersion": 1344, "NSStoreModelVersionHashesVersion": 3,
            "NSStoreModelVersionIdentifiers": [""], "NSStoreModelVersionHashes": hashes,
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [data])
            guard persistentHistory else { return }
            try db.execute(sql: """
                CREATE TABLE ATRANSACTION (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTIMESTAMP TIMESTAMP);
                CREATE TABLE ACHANGE (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER);
                CREATE TABLE ATRANSACTIONSTRING (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR);
                INSERT INTO ATRANSACTION (Z_ENT, Z_OPT, ZTIMESTAMP) VALUES (16002, 1, 0);
                INSERT INTO ACHANGE (Z_ENT, Z_OPT, ZCHANGETYPE) VALUES (16001, 1, 0);
                INSERT INTO Z_PRIMARYKEY VALUES (16001, 'CHANGE', 0, 1), (16002, 'TRANSACTION', 0, 1), (16003, 'TRANSACTIONSTRING', 0, 0);
                """)
        }
        try queue.close()
        return path
    }

    @Test func aCoreDataStoreIsRecognisedAndReadWithItsExtraTables() throws {
        let scratch = try ScratchDirectory()
        let path = try Self.coreDataLikeStore(in: scratch)
        let before = try ForeignFileTests.files(in: scratch)
        let description = try StoreFileDescription.read(path: path)
        #expect(description.writer == .coreData)
        #expect(description.summary == "a Core Data store written by framework version 1344, entities Writer (1); "
            + "Core Data's own: CHANGE (16001), TRANSACTION (16002), TRANSACTIONSTRING (16003)")
        #expect(description.rowCounts == [1: 1])
        #expect(description.entities.map(\.number) == [1])
        #expect(description.coreDataEntities.map(\.number) == [16001, 16002, 16003])
        #expect(description.keepsPersistentHistory)
        // Matched by its hashes, which name the model's entities only: Core Data's own are not the model's.
        let match = StoreVersionMatch(file: description, versions: [try TestModels.model(Self.model)])
        #expect(match.method == .versionHashes)
        #expect(match.matches.count == 1)
        let store = try SQLiteObjectStore(path: path, model: TestModels.model(Self.model), access: .readOnly)
        let dump = try store.dump()
        try store.close()
        #expect(dump.store.entities.map(\.objects) == [1])
        #expect(dump.objects.map(\.id) == ["x-coredata://61FC2D16-6A9B-47E7-AD90-9013E066EC6C/Author/p1"])
        #expect(dump.objects.first?.values == ["name": .string("Ada")])
        #expect(try ForeignFileTests.files(in: scratch) == before)
    }

    @Test func writingIntoItNeedsExplicitPermission() throws {
        let scratch = try ScratchDirectory()
        // Without persistent history, which momlint does not write (the next test).
        let path = try Self.coreDataLikeStore(in: scratch, persistentHistory: false)
        let model = try TestModels.model(Self.model)
        let before = try ForeignFileTests.files(in: scratch)
        #expect(throws: SQLiteStoreError.self) { try SQLiteObjectStore(path: path, model: model) }
        #expect(try ForeignFileTests.files(in: scratch) == before)
        let store = try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        let ada = try #require(try store.fetch("Author").first)
        try store.set("name", of: ada, to: .string("Ada Lovelace"))
        try store.save()
        try store.close()
        let reopened = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        #expect(try reopened.value("name", of: ada) == .string("Ada Lovelace"))
        try reopened.close()
    }

    /// Core Data records every change in its persistent history, which momlint does not
    /// write: a store that keeps it is not written to, nor migrated, even when asked.
    @Test func aStoreWithPersistentHistoryIsNeverWritten() throws {
        let scratch = try ScratchDirectory()
        let path = try Self.coreDataLikeStore(in: scratch)
        let model = try TestModels.model(Self.model)
        let before = try ForeignFileTests.files(in: scratch)
        #expect {
            try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        } throws: { error in
            (error as? SQLiteStoreError)?.message == "'\(path)' is a Core Data store written by framework version 1344, entities Writer (1); "
                + "Core Data's own: CHANGE (16001), TRANSACTION (16002), TRANSACTIONSTRING (16003); momlint does not write to a store "
                + "that keeps Core Data's persistent history, which would not record the change: open it read-only"
        }
        let renamed = try TestModels.model(Self.model.replacingOccurrences(of: "\"name\"", with: "\"fullName\" renamingIdentifier=\"name\""))
        #expect(throws: SQLiteStoreError.self) {
            try SQLiteObjectStore.migrateStore(at: path, from: model, to: renamed, access: .readWriteIncludingCoreDataStores)
        }
        #expect(try ForeignFileTests.files(in: scratch) == before)
    }

    /// A row holding a value in a form the model's type would not write back (here a UUID
    /// stored as text) keeps it: a save writes only the columns it changes, and a delete writes
    /// no value, so neither is refused for it. A value the column cannot hold as set (SQLite
    /// stores a NaN as NULL) is refused before anything is written.
    @Test func aSaveWritesOnlyWhatItSetsAndRefusesAValueTheColumnCannotHold() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Tokens.sqlite")
        let model = try TestModels.model("""
            <entity name="Token">
                <attribute name="label" optional="YES" attributeType="String"/>
                <attribute name="ref" optional="YES" attributeType="UUID"/>
                <attribute name="weight" optional="YES" attributeType="Double"/>
            </entity>
            """)
        let store = try SQLiteObjectStore(path: path, model: model)
        let token = try store.insert("Token", values: ["label": .string("a")])
        let other = try store.insert("Token", values: ["label": .string("z")])
        try store.save()
        try store.close()
        let plist = try PropertyListSerialization.data(fromPropertyList: ["NSStoreType": "SQLite"], format: .binary, options: 0)
        let text = "e621e1f8-c36c-495a-93fc-0c247a3e6e5f"
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [plist])
            try db.execute(sql: "UPDATE ZTOKEN SET ZREF = ?", arguments: [text])
        }
        try queue.close()
        func stored() throws -> [[String]] {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in
                try Row.fetchAll(db, sql: "SELECT ZLABEL, ZREF, typeof(ZREF) FROM ZTOKEN ORDER BY Z_PK").map { $0.databaseValues.map(\.description) }
            }
        }

        let writer = try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        try writer.set("label", of: token, to: .string("b"))
        try writer.delete(other)
        try writer.save()
        try writer.close()
        #expect(try stored() == [["\"b\"", "\"\(text)\"", "\"text\""]])

        let before = try Data(contentsOf: URL(fileURLWithPath: path))
        let refused = try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        try refused.set("weight", of: token, to: .double(.nan))
        #expect {
            try refused.save()
        } throws: { error in
            (error as? SQLiteStoreError)?.message.contains("'Token.weight' of object") == true
        }
        try refused.close()
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == before)
    }
}

/// A rollback-journal database left with a hot journal (a writer stopped mid-transaction) is
/// refused, never replayed (issue 39): replaying writes the database and deletes the
/// super-journal the journal names, which may be any file. Nothing beside it changes, and a
/// file the journal names as its super-journal is still there.
@Suite struct HotJournalTests {
    @Test func aHotJournalIsRefusedAndNeverReplayed() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Journal.sqlite")
        let model = try TestModels.model("""
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
            """)
        // A momlint store converted to a rollback journal, as an older Core Data store is.
        let store = try SQLiteObjectStore(path: path, model: model)
        try store.insert("Note", values: ["text": .string("kept")])
        try store.save()
        try store.close()
        var configuration = Configuration()
        configuration.journalMode = .default
        let queue = try DatabaseQueue(path: path, configuration: configuration)
        try queue.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA journal_mode = DELETE") }
        try queue.close()
        // Make a hot journal: copy the file and its journal while a transaction is open.
        let writer = try DatabaseQueue(path: path)
        let copy = try ScratchDirectory()
        let copied = copy.path("Journal.sqlite")
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = 1")
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE ZNOTE SET ZTEXT = 'lost'")
            try db.execute(sql: "CREATE TABLE filler (x BLOB)")
            for _ in 0..<50 { try db.execute(sql: "INSERT INTO filler VALUES (zeroblob(4096))") }
            try FileManager.default.copyItem(atPath: path, toPath: copied)
            if FileManager.default.fileExists(atPath: path + "-journal") {
                try FileManager.default.copyItem(atPath: path + "-journal", toPath: copied + "-journal")
            }
            try db.execute(sql: "ROLLBACK")
        }
        try writer.close()
        try #require(FileManager.default.fileExists(atPath: copied + "-journal"))
        // The journal names a victim as its super-journal (the record SQLite reads from the
        // end of a journal: page number, name, its length, its checksum, the journal magic).
        let victim = copy.path("victim.txt")
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        let name = Array(victim.utf8)
        var record: [UInt8] = [0x00, 0x04, 0x00, 0x01] + name
        record += withUnsafeBytes(of: UInt32(name.count).bigEndian, Array.init)
        record += withUnsafeBytes(of: UInt32(name.reduce(0) { $0 &+ UInt32($1) }).bigEndian, Array.init)
        record += [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]
        let journal = try FileHandle(forWritingTo: URL(fileURLWithPath: copied + "-journal"))
        try journal.seekToEnd()
        try journal.write(contentsOf: Data(record))
        try journal.close()
        let before = try ForeignFileTests.files(in: copy)
        for access in [SQLiteObjectStore.Access.readOnly, .readWrite, .readWriteIncludingCoreDataStores] {
            let message = try ForeignFileTests.refusal(copied, access: access)
            #expect(message.hasPrefix("'\(copied)' has an unfinished transaction (a hot rollback journal beside it, '\(copied)-journal', "))
            #expect(message.hasSuffix("momlint never replays one. Open the store in the app (or with sqlite3) first, then read it again"))
        }
        #expect(throws: SQLiteStoreError.self) { try StoreFileDescription.read(path: copied) }
        #expect(try ForeignFileTests.files(in: copy) == before)
    }
}

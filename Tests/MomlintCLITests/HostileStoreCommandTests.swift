import Foundation
import GRDB
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 39: `momlint store dump` / `which-version` on SQLite files someone else made, each
/// crafted here by the test (no binary fixtures). Every attack ends with exit 2 and one
/// escaped line, and leaves every file in the folder — and every file a link there points at —
/// byte-identical, with the same mode, still there. docs/security.md ("Stores") lists them.
@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct HostileStoreCommandTests {
    static let model = MomlintProcess.packageRoot.appendingPathComponent("Fixtures/Models/Conformance/Library.xcdatamodeld").path

    /// A folder for one attack, and one outside it for the files its links point at.
    final class Scene {
        let folder: String
        let outside: String

        init() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-hostile-\(UUID().uuidString)").path
            folder = root + "/store"
            outside = root + "/outside"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        }

        deinit { try? FileManager.default.removeItem(atPath: (folder as NSString).deletingLastPathComponent) }

        var store: String { folder + "/Library.sqlite" }

        /// The file's bytes, base64; for a file over 64 MiB (the sparse -wal), its first and last
        /// MiB and its modification time to the nanosecond, which any write changes.
        static func fingerprint(_ path: String) throws -> String {
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            let size = try handle.seekToEnd()
            try handle.seek(toOffset: 0)
            guard size > 64 << 20 else { return try handle.readToEnd()?.base64EncodedString() ?? "" }
            let head = try handle.read(upToCount: 1 << 20) ?? Data()
            try handle.seek(toOffset: size - (1 << 20))
            let tail = try handle.read(upToCount: 1 << 20) ?? Data()
            var status = stat()
            _ = stat(path, &status)
            #if canImport(Darwin)
            let modified = status.st_mtimespec
            #else
            let modified = status.st_mtim
            #endif
            return "\(modified.tv_sec).\(modified.tv_nsec) \(head.base64EncodedString()) \(tail.base64EncodedString())"
        }

        /// Every entry of both folders: its kind, mode and bytes (links: where they point).
        func state() throws -> [String: String] {
            var state: [String: String] = [:]
            for directory in [folder, outside] {
                for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
                    let path = directory + "/" + name
                    state[path] = try Self.entryState(atPath: path)
                }
            }
            return state
        }

        /// One entry's kind, mode and bytes (a link: where it points; a FIFO or other special
        /// file: its kind and mode alone, never opened); nil when it is not there.
        static func entryState(atPath path: String) throws -> String? {
            var status = stat()
            guard lstat(path, &status) == 0 else { return nil }
            let mode = String(status.st_mode, radix: 8)
            switch status.st_mode & S_IFMT {
            case S_IFLNK: return "link \(mode) -> \(try FileManager.default.destinationOfSymbolicLink(atPath: path))"
            case S_IFREG: return "file \(mode) \(status.st_size) \(try fingerprint(path))"
            default: return "other \(mode)"
            }
        }
    }

    struct Outcome {
        var status: Int32
        var standardOutput: String
        var standardError: String
        var seconds: Double
    }

    /// Runs momlint, killing it after 30 s (a hang fails the test instead of stalling it).
    static func run(_ arguments: [String], in directory: URL? = nil, environment: [String: String]? = nil) throws -> Outcome {
        let process = Process()
        process.executableURL = try MomlintProcess.executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        let start = Date()
        try process.run()
        let watchdog = DispatchWorkItem { if process.isRunning { process.terminate() } }
        DispatchQueue.global().asyncAfter(deadline: .now() + 30, execute: watchdog)
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        watchdog.cancel()
        return Outcome(status: process.terminationStatus, standardOutput: String(decoding: outData, as: UTF8.self),
                       standardError: String(decoding: errData, as: UTF8.self), seconds: Date().timeIntervalSince(start))
    }

    /// Both commands on `path`: each exits 2 with one line containing `expected`, prints nothing
    /// on standard output, and leaves the scene as it was.
    static func expectRefusal(_ scene: Scene, path: String? = nil, _ expected: String,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        let path = path ?? scene.store
        let before = try scene.state()
        for arguments in [["store", "which-version", path, model], ["store", "dump", path, "--model", model]] {
            let outcome = try run(arguments)
            #expect(outcome.status == 2, "\(arguments[1]): \(outcome.standardError)", sourceLocation: sourceLocation)
            #expect(outcome.standardOutput.isEmpty, sourceLocation: sourceLocation)
            #expect(outcome.standardError.contains(expected), "\(outcome.standardError)", sourceLocation: sourceLocation)
            expectOneEscapedLine(outcome.standardError, sourceLocation: sourceLocation)
            #expect(outcome.seconds < 20, sourceLocation: sourceLocation)
        }
        #expect(try scene.state() == before, sourceLocation: sourceLocation)
    }

    /// One line, ending in a line break, holding no other control character.
    static func expectOneEscapedLine(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(text.hasSuffix("\n") && text.filter { $0 == "\n" }.count == 1, "\(text.debugDescription)", sourceLocation: sourceLocation)
        #expect(!text.dropLast().unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) },
                sourceLocation: sourceLocation)
        #expect(text.utf8.count < 6_000, sourceLocation: sourceLocation)
    }

    // MARK: Crafting

    /// The Library model's own version hash of Book (`momlint print --hashes`), as Core Data
    /// writes it into a store of that model: with it, `which-version` matches the store by its
    /// hashes (issue 35); without it (the default below), no version hashes like the store.
    static var matchingHashes: [String: Any] {
        ["NSStoreModelVersionHashes": ["Book": Data(base64Encoded: "/px+w03psrpYbjFBoKLSWiz/P1pAe3CHYsMZphIVJw0=")!]]
    }

    static func metadata(frameworkVersion: Any = 1344, extra: [String: Any] = [:]) throws -> Data {
        var plist: [String: Any] = ["NSStoreType": "SQLite", "NSStoreUUID": "6F1B1D63-0E55-4C4B-9C0B-6A1E6C3B7A11",
                                    "NSPersistenceFrameworkVersion": frameworkVersion,
                                    "NSStoreModelVersionHashes": ["Book": Data(repeating: 1, count: 32)],
                                    "NSStoreModelVersionIdentifiers": [""], "NSStoreModelVersionHashesVersion": 3]
        plist.merge(extra) { _, new in new }
        return try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
    }

    /// A WAL store at `path` (and `path-wal`) whose last book, number `rows + 1`, is only in the
    /// -wal: crafted in `scratch` and copied while its writer still holds it open, so the frame
    /// is never checkpointed into the file; the crafted source is removed.
    static func craftWithBookOnlyInWAL(at path: String, scratch: String, metadata plist: Data? = nil, rows: Int = 1) throws {
        let source = scratch + "/source.sqlite"
        try craft(source, metadata: plist, rows: rows, wal: true)
        let writer = try DatabaseQueue(path: source)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "INSERT INTO ZBOOK VALUES (?, 1, 1, NULL, NULL, 'only in the wal')", arguments: [rows + 1])
            try FileManager.default.copyItem(atPath: source, toPath: path)
            try FileManager.default.copyItem(atPath: source + "-wal", toPath: path + "-wal")
        }
        try writer.close()
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: source + suffix) }
    }

    /// A store laid out as Core Data lays out one for the Library model, with `rows` books,
    /// then changed by `sql`.
    static func craft(_ path: String, metadata plist: Data? = nil, rows: Int = 1, wal: Bool = false, then sql: String = "") throws {
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            if wal { _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL") }
            try db.execute(sql: """
                CREATE TABLE ZBOOK (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCOVER BLOB, ZSETTINGS BLOB, ZTITLE VARCHAR);
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
                """)
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY VALUES (1, 'Book', 0, ?)", arguments: [rows])
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, 'X', ?)", arguments: [try plist ?? metadata()])
            try db.inTransaction {
                for key in 0..<rows {
                    try db.execute(sql: "INSERT INTO ZBOOK VALUES (?, 1, 1, NULL, NULL, ?)", arguments: [key + 1, "book \(key)"])
                }
                return .commit
            }
            if !sql.isEmpty { try db.execute(sql: sql) }
        }
        try queue.close()
    }

    /// Copies `path` and its hot journal to `destination` while a transaction is half-written
    /// (a writer stopped mid-transaction leaves exactly this).
    static func craftHotJournal(at destination: String, scratch: String) throws {
        let source = scratch + "/source.sqlite"
        try craft(source, rows: 2_000)
        let writer = try DatabaseQueue(path: source)
        try writer.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA cache_size = 2")
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "UPDATE ZBOOK SET ZTITLE = ZTITLE || ' changed, and long enough to spill the cache'")
            try db.execute(sql: "DELETE FROM ZBOOK WHERE Z_PK > 10")
            try FileManager.default.copyItem(atPath: source, toPath: destination)
            try FileManager.default.copyItem(atPath: source + "-journal", toPath: destination + "-journal")
            try db.execute(sql: "ROLLBACK")
        }
        try writer.close()
        try FileManager.default.removeItem(atPath: source)
    }

    /// Appends the record naming `victim` as the journal's super-journal: page number, the
    /// name, its length, the sum of its bytes, the journal magic (SQLite's pager.c,
    /// writeSuperJournal).
    static func nameSuperJournal(_ victim: String, in journal: String) throws {
        let name = Array(victim.utf8)
        var record: [UInt8] = [0x00, 0x04, 0x00, 0x01] + name
        record += withUnsafeBytes(of: UInt32(name.count).bigEndian, Array.init)
        record += withUnsafeBytes(of: name.reduce(UInt32(0)) { $0 &+ UInt32($1) }.bigEndian, Array.init)
        record += [0xd9, 0xd5, 0x05, 0xf9, 0x20, 0xa1, 0x63, 0xd7]
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: journal))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(record))
        try handle.close()
    }

    // MARK: 1–2. Nothing is ever written, deleted, chmod'ed or replayed

    /// A hot journal naming a victim as its super-journal once had the victim deleted (exit 0).
    @Test func aJournalNamingAVictimAsItsSuperJournalDeletesNothing() throws {
        let scene = try Scene()
        try Self.craftHotJournal(at: scene.store, scratch: scene.outside)
        let victim = scene.outside + "/victim.txt"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        try Self.nameSuperJournal(victim, in: scene.store + "-journal")
        try Self.expectRefusal(scene, "has an unfinished transaction (a hot rollback journal beside it")
        #expect(FileManager.default.fileExists(atPath: victim))
    }

    /// A store and its hot journal reached through links: the originals were once rolled back
    /// (299,008 → 28,672 bytes) and the journal deleted.
    @Test func aHotJournalReachedThroughLinksChangesNothing() throws {
        let scene = try Scene()
        let original = scene.outside + "/Original.sqlite"
        try Self.craftHotJournal(at: original, scratch: scene.folder)
        try FileManager.default.createSymbolicLink(atPath: scene.store, withDestinationPath: original)
        try FileManager.default.createSymbolicLink(atPath: scene.store + "-journal", withDestinationPath: original + "-journal")
        try Self.expectRefusal(scene, "has an unfinished transaction")
    }

    /// A WAL store whose -wal and -shm are links: read from a copy of the bytes; the targets keep
    /// their bytes and modes (the copy once kept the links, then chmod'ed what they point at).
    @Test func aStoreWhoseWALIsALinkIsReadAndNothingIsChmodded() throws {
        let scene = try Scene()
        try Self.craftWithBookOnlyInWAL(at: scene.outside + "/Original.sqlite", scratch: scene.outside)
        let victim = scene.outside + "/victim.txt"
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim))
        #expect(chmod(scene.outside + "/Original.sqlite", 0o444) == 0)
        #expect(chmod(scene.outside + "/Original.sqlite-wal", 0o444) == 0)
        #expect(chmod(victim, 0o644) == 0)
        try FileManager.default.createSymbolicLink(atPath: scene.store, withDestinationPath: scene.outside + "/Original.sqlite")
        try FileManager.default.createSymbolicLink(atPath: scene.store + "-wal", withDestinationPath: scene.outside + "/Original.sqlite-wal")
        try FileManager.default.createSymbolicLink(atPath: scene.store + "-shm", withDestinationPath: victim)
        let before = try scene.state()
        let temporary = scene.outside + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        let outcome = try Self.run(["store", "dump", scene.store, "--model", Self.model, "--format", "text"], environment: environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains("  title = 'only in the wal'\n"))
        var after = try scene.state()
        after[temporary] = nil
        var expected = before
        expected[temporary] = nil
        #expect(after == expected)
        // The private copy is gone, and nothing else was left in TMPDIR.
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty)
    }

    /// A private copy never outlives momlint: SIGTERM at any moment leaves nothing in TMPDIR,
    /// and a folder a SIGKILL left during a copy (its process gone) is removed by the next copy,
    /// which touches only the files a copy makes, in folders, never through a link of the same
    /// name.
    @Test func privateCopiesAreRemovedOnSignalsAndAfterAKill() throws {
        let scene = try Scene()
        try Self.craftWithBookOnlyInWAL(at: scene.store, scratch: scene.outside,
                                        metadata: try Self.metadata(extra: Self.matchingHashes), rows: 20_000)
        let temporary = scene.outside + "/tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = temporary
        for delay in [0.0, 0.02, 0.05, 0.1, 0.2] {
            let process = Process()
            process.executableURL = try MomlintProcess.executable
            process.arguments = ["store", "dump", scene.store, "--model", Self.model]
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            Thread.sleep(forTimeInterval: delay)
            process.terminate()
            process.waitUntilExit()
            #expect(try FileManager.default.contentsOfDirectory(atPath: temporary).isEmpty, "SIGTERM after \(delay) s")
        }
        // A folder as a SIGKILL during the copy leaves it, named for a process that has ended.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let left = temporary + "/momlint-store-\(ended.processIdentifier)-AbCdEf"
        try FileManager.default.createDirectory(atPath: left, withIntermediateDirectories: true)
        try Data(repeating: 7, count: 4096).write(to: URL(fileURLWithPath: left + "/store.sqlite"))
        let kept = temporary + "/momlint-store-\(ended.processIdentifier)-Other"
        try FileManager.default.createDirectory(atPath: kept, withIntermediateDirectories: true)
        try Data("not momlint's\n".utf8).write(to: URL(fileURLWithPath: kept + "/notes.txt"))
        // Names of the same pattern that are not folders of momlint's: a link to a folder holding
        // a store.sqlite, and a file. Neither is followed nor removed.
        let victim = scene.outside + "/victim"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: true)
        try Data("precious\n".utf8).write(to: URL(fileURLWithPath: victim + "/store.sqlite"))
        let link = temporary + "/momlint-store-\(ended.processIdentifier)-Linked"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        let file = temporary + "/momlint-store-\(ended.processIdentifier)-AFile"
        try Data("not momlint's\n".utf8).write(to: URL(fileURLWithPath: file))
        let outcome = try Self.run(["store", "which-version", scene.store, Self.model], environment: environment)
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(try Set(FileManager.default.contentsOfDirectory(atPath: temporary))
            == Set([kept, link, file].map { ($0 as NSString).lastPathComponent }))
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept) == ["notes.txt"])
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: link) == victim)
        #expect(try Data(contentsOf: URL(fileURLWithPath: victim + "/store.sqlite")) == Data("precious\n".utf8))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data("not momlint's\n".utf8))
    }

    /// A -wal that is a link to a file that is not a write-ahead log: reported, never ignored.
    @Test func aWALLinkedToSomethingElseIsReportedAsDamaged() throws {
        let scene = try Scene()
        try Self.craft(scene.store, wal: true)
        let victim = scene.outside + "/victim.txt"
        try Data(String(repeating: "precious\n", count: 100).utf8).write(to: URL(fileURLWithPath: victim))
        try FileManager.default.createSymbolicLink(atPath: scene.store + "-wal", withDestinationPath: victim)
        try Self.expectRefusal(scene, "-wal' is damaged (no write-ahead-log magic number in its header)")
    }

    // MARK: 3. Hangs

    @Test func aFIFOAsTheStoreIsOneLine() throws {
        let scene = try Scene()
        #expect(mkfifo(scene.store, 0o600) == 0)
        try Self.expectRefusal(scene, "is not an SQLite database: it is not a regular file (a FIFO)")
    }

    @Test func aFIFOAsTheJournalOrTheWALIsOneLine() throws {
        let scene = try Scene()
        try Self.craft(scene.store, wal: false)
        #expect(mkfifo(scene.store + "-journal", 0o600) == 0)
        try Self.expectRefusal(scene, "-journal' cannot be the store's rollback journal: it is not a regular file (a FIFO)")
        let walScene = try Scene()
        try Self.craft(walScene.store, wal: true)
        #expect(mkfifo(walScene.store + "-wal", 0o600) == 0)
        try Self.expectRefusal(walScene, "-wal' cannot be the store's write-ahead log: it is not a regular file (a FIFO)")
    }

    /// Once "does not exist or is empty" for all three.
    @Test func devicesAndLinkLoopsAreNamed() throws {
        let scene = try Scene()
        try FileManager.default.createSymbolicLink(atPath: scene.folder + "/zero.sqlite", withDestinationPath: "/dev/zero")
        try Self.expectRefusal(scene, path: scene.folder + "/zero.sqlite", "is not an SQLite database: it is not a regular file (a character device)")
        try FileManager.default.createSymbolicLink(atPath: scene.folder + "/a", withDestinationPath: scene.folder + "/b")
        try FileManager.default.createSymbolicLink(atPath: scene.folder + "/b", withDestinationPath: scene.folder + "/a")
        try Self.expectRefusal(scene, path: scene.folder + "/a", "cannot be read: it is a symbolic link that leads to itself")
        try Self.expectRefusal(scene, path: "/dev/stdin", "it is not a regular file")
        try Data().write(to: URL(fileURLWithPath: scene.folder + "/empty.sqlite"))
        try Self.expectRefusal(scene, path: scene.folder + "/empty.sqlite", "is empty (0 bytes)")
        try Self.expectRefusal(scene, path: scene.folder + "/missing.sqlite", "does not exist")
    }

    static let endlessView = "CREATE VIEW endless AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x AS Z_ENT, 'Book' AS Z_NAME, 0 AS Z_SUPER, 0 AS Z_MAX FROM c;"

    /// An FTS5 table reading from a view over a never-ending recursive query, as Z_PRIMARYKEY.
    @Test func aVirtualTableAsZPrimaryKeyIsRefused() throws {
        let scene = try Scene()
        try Self.craft(scene.store, then: "DROP TABLE Z_PRIMARYKEY; \(Self.endlessView) "
            + "CREATE VIRTUAL TABLE Z_PRIMARYKEY USING fts5(Z_ENT, Z_NAME, Z_SUPER, Z_MAX, content=endless, content_rowid=Z_ENT);")
        try Self.expectRefusal(scene, "Z_PRIMARYKEY is a virtual table (module fts5), not a table of stored rows")
    }

    /// … or as an extra table beside the store's.
    @Test func aVirtualTableAsAnExtraTableIsRefused() throws {
        let scene = try Scene()
        try Self.craft(scene.store, then: "\(Self.endlessView) "
            + "CREATE VIRTUAL TABLE ZEXTRA USING fts5(Z_NAME, Z_ENT, content=endless, content_rowid=Z_ENT);")
        try Self.expectRefusal(scene, "ZEXTRA is a virtual table (module fts5)")
    }

    /// A view named like a table, even in a file claiming momlint's own layout fingerprint
    /// (which once skipped the structure check and read the view).
    @Test func aViewAsATableIsRefusedWhateverTheMetadataClaims() throws {
        let scene = try Scene()
        try Self.craft(scene.store, metadata: try Self.metadata(extra: ["MomlintSchemaFingerprint": "claimed"]),
                       then: "DROP TABLE Z_PRIMARYKEY; CREATE VIEW Z_PRIMARYKEY AS WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) "
                           + "SELECT x AS Z_ENT, 'Book' AS Z_NAME, 0 AS Z_SUPER, 0 AS Z_MAX FROM c;")
        try Self.expectRefusal(scene, "Z_PRIMARYKEY is a view (a query the file carries, run each time it is read)")
    }

    /// An app's own full-text index beside its store, under a name Core Data never uses, is
    /// never read (its shadow tables are plain tables, and differ from the model as any extra
    /// table does).
    @Test func anAppsOwnVirtualTableIsLeftUnread() throws {
        let scene = try Scene()
        try Self.craft(scene.store, then: "\(Self.endlessView) CREATE VIRTUAL TABLE search USING fts5(Z_NAME, content=endless, content_rowid=Z_ENT);")
        let outcome = try Self.run(["store", "which-version", scene.store, Self.model])
        #expect(outcome.status == 1, "\(outcome.standardError)")
        // The store's hashes are not the model's, so its extra tables are listed as layout differences.
        #expect(outcome.standardOutput.contains("    - layout: the file has table SEARCH_CONFIG, which the model does not\n"))
        #expect(!outcome.standardOutput.contains("table SEARCH,"))
    }

    // MARK: 4. Gigabytes from tiny files

    @Test func generatedColumnsAreRefused() throws {
        let scene = try Scene()
        // Z_PLIST as zeroblob(999999999): once 3.9 GB.
        try Self.craft(scene.store, then: """
            CREATE TABLE Z_METADATA2 (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255),
                Z_PLIST BLOB GENERATED ALWAYS AS (zeroblob(999999999)) VIRTUAL);
            INSERT INTO Z_METADATA2 (Z_VERSION, Z_UUID) VALUES (1, 'x');
            DROP TABLE Z_METADATA; ALTER TABLE Z_METADATA2 RENAME TO Z_METADATA;
            """)
        try Self.expectRefusal(scene, "Z_METADATA.Z_PLIST is a generated column")
        // A 1e9-character Z_NAME: once 6.4 GB and 497 MB on standard output.
        let other = try Scene()
        try Self.craft(other.store, then: """
            CREATE TABLE Z_PK2 (Z_ENT INTEGER PRIMARY KEY, Z_SUPER INTEGER, Z_MAX INTEGER,
                Z_NAME VARCHAR GENERATED ALWAYS AS (printf('%.*c', 1000000000, 'x')) STORED);
            DROP TABLE Z_PRIMARYKEY; ALTER TABLE Z_PK2 RENAME TO Z_PRIMARYKEY;
            """)
        try Self.expectRefusal(other, "Z_PRIMARYKEY.Z_NAME is a generated column")
    }

    /// A binary property list whose entries all name one shared object (once ≥ 3.1 GB), one
    /// that holds itself, and one over the size limit.
    @Test func costlyMetadataPropertyListsAreRefused() throws {
        func bplist(_ objects: [[UInt8]], top: Int = 0) -> Data {
            var bytes = Array("bplist00".utf8)
            var offsets: [Int] = []
            for object in objects {
                offsets.append(bytes.count)
                bytes += object
            }
            let table = bytes.count
            for offset in offsets { bytes += withUnsafeBytes(of: UInt32(offset).bigEndian, Array.init) }
            bytes += [0, 0, 0, 0, 0, 0, 4, 2]
            for value in [objects.count, top, table] { bytes += withUnsafeBytes(of: UInt64(value).bigEndian, Array.init) }
            return Data(bytes)
        }
        func array(_ references: [Int]) -> [UInt8] {
            [0xAF, 0x11] + withUnsafeBytes(of: UInt16(references.count).bigEndian, Array.init)
                + references.flatMap { withUnsafeBytes(of: UInt16($0).bigEndian, Array.init) }
        }
        let key = [0x5F, 0x10, 30] + Array("NSStoreModelVersionIdentifiers".utf8)
        let shared = bplist([[0xD1, 0x00, 0x01, 0x00, 0x02], key, array(Array(repeating: 3, count: 3_000)),
                             array(Array(repeating: 4, count: 3_000)), [0x5A] + Array(repeating: 0x78, count: 10)])
        let scene = try Scene()
        try Self.craft(scene.store, metadata: shared)
        try Self.expectRefusal(scene, "has a metadata property list (Z_METADATA.Z_PLIST) momlint does not read: it holds more than 100000 objects, counting each shared object every time it is used")

        let itself = bplist([[0xD1, 0x00, 0x01, 0x00, 0x02], key, array([2])])
        let loop = try Scene()
        try Self.craft(loop.store, metadata: itself)
        try Self.expectRefusal(loop, "it nests deeper than 32 levels (or holds itself)")

        let large = try Scene()
        try Self.craft(large.store, metadata: try Self.metadata(frameworkVersion: String(repeating: "v\n", count: 2_500_000)))
        try Self.expectRefusal(large, "of 5000")
    }

    /// `dump` holds one object at a time: 20,000 books come out whole.
    @Test func dumpStreamsEveryObject() throws {
        let scene = try Scene()
        try Self.craft(scene.store, rows: 20_000)
        let outcome = try Self.run(["store", "dump", scene.store, "--model", Self.model])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any])
        let objects = try #require(json["objects"] as? [[String: Any]])
        #expect(objects.count == 20_000)
        #expect((objects.last?["values"] as? [String: Any])?["title"] as? String == "book 19999")
        let store = try #require(json["store"] as? [String: Any])
        #expect((store["entities"] as? [[String: Any]])?.first?["objects"] as? Int == 20_000)
    }

    // MARK: 5. Terminal injection and forged lines

    @Test func namesFromTheStoreAreEscapedOnEveryLine() throws {
        let scene = try Scene()
        try Self.craft(scene.store, then: """
            UPDATE Z_PRIMARYKEY SET Z_NAME = char(10) || '::error file=x::forged' || char(27) || '[2J' || char(8238);
            UPDATE ZBOOK SET ZTITLE = 'line' || char(10) || '::warning::forged' || char(27) || '[31m';
            CREATE TABLE "Z
            ::error::forged" (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER);
            """)
        let which = try Self.run(["store", "which-version", scene.store, Self.model])
        #expect(which.status == 1)
        for line in which.standardOutput.split(separator: "\n") {
            #expect(!line.hasPrefix("::"))
            #expect(!line.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E })
        }
        #expect(which.standardOutput.contains("entity 1 is '\\n::error file=x::forged\\u{1B}[2J\\u{202E}' in the file, 'Book' in the model"))
        // The text dump of a file whose entity names are fine but whose values are not.
        let clean = try Scene()
        try Self.craft(clean.store, then: "UPDATE ZBOOK SET ZTITLE = 'line' || char(10) || '::warning::forged' || char(27) || '[31m';")
        let text = try Self.run(["store", "dump", clean.store, "--model", Self.model, "--format", "text"])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("  title = 'line\\n::warning::forged\\u{1B}[31m'\n"))
        #expect(!text.standardOutput.unicodeScalars.contains { $0.value < 0x20 && $0 != "\n" })
    }

    /// A 5 MB framework version and 5 MB names are cut, saying how much was left out.
    @Test func longTextFromTheStoreIsCut() throws {
        let scene = try Scene()
        try Self.craft(scene.store, metadata: try Self.metadata(frameworkVersion: String(repeating: "9", count: 3_000_000),
                                                                extra: Self.matchingHashes),
                       then: "UPDATE ZBOOK SET ZTITLE = printf('%.*c', 5000000, 'x');")
        let which = try Self.run(["store", "which-version", scene.store, Self.model])
        #expect(which.status == 0, "\(which.standardError)")
        #expect(which.standardOutput.utf8.count < 2_000)
        #expect(which.standardOutput.contains("…(2999800 more bytes)"))
        let text = try Self.run(["store", "dump", scene.store, "--model", Self.model, "--format", "text"])
        #expect(text.standardOutput.contains("…(4999002 more bytes)"))
        #expect(text.standardOutput.utf8.count < 4_000)
    }

    // MARK: 6. Nothing lost in silence

    /// Text holding NUL was cut at the NUL.
    @Test func textHoldingNULIsDumpedWhole() throws {
        let scene = try Scene()
        try Self.craft(scene.store, then: "UPDATE ZBOOK SET ZTITLE = 'a' || char(0) || 'b';")
        let outcome = try Self.run(["store", "dump", scene.store, "--model", Self.model])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutput.contains(#""title" : "a\u0000b""#))
        let text = try Self.run(["store", "dump", scene.store, "--model", Self.model, "--format", "text"])
        #expect(text.standardOutput.contains("  title = 'a\\u{0}b'\n"))
    }

    /// A -wal whose frame fails its checksum was ignored without a word (stale data shown); one
    /// over the size limit (a 1.9 GB sparse file) was copied whole into $TMPDIR.
    @Test func aDamagedOrOversizedWALIsReported() throws {
        let scene = try Scene()
        try Self.craftWithBookOnlyInWAL(at: scene.store, scratch: scene.outside)
        let handle = try FileHandle(forUpdating: URL(fileURLWithPath: scene.store + "-wal"))
        try handle.seek(toOffset: 32 + 24 + 100)
        let byte = try #require(try handle.read(upToCount: 1)?.first)
        try handle.seek(toOffset: 32 + 24 + 100)
        try handle.write(contentsOf: Data([byte ^ 0xFF]))
        try handle.close()
        try Self.expectRefusal(scene, "-wal' is damaged (frame 1 of ")

        #expect(truncate(scene.store + "-wal", 1_900_000_000) == 0)
        try Self.expectRefusal(scene, "-wal' is 1900000000 bytes, over the limit of 268435456")
    }
}

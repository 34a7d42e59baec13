import Conformance
import DataModel
import Foundation
import GRDB
import SQLiteStore
import Testing

/// A store that loses data on a crash is no store. A child process (`sqlite-crash-child`)
/// replaces a whole ledger generation in one large save; the test kills it with SIGKILL at
/// many points during that save, then reopens the file and checks that it holds exactly the
/// old generation or exactly the new one, never a mix, and that SQLite finds it intact.
///
/// Why this holds: the store writes a save in one SQLite transaction in WAL mode. "If a crash
/// or power failure occurs in the middle of a transaction, … the transaction will appear to
/// have never occurred" for a WAL database, because readers ignore WAL frames past the last
/// commit frame (https://www.sqlite.org/wal.html, https://www.sqlite.org/atomiccommit.html).
@Suite(.serialized) struct CrashSafetyTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let modelPath = packageRoot.appendingPathComponent("Fixtures/CrashSafety/Ledger.xcdatamodel").path
    /// Entries per generation: enough that a save spills pages to the WAL before it commits.
    static let entryCount = 3_000
    /// Kill points per run; the last few fall after the save, to cover the "new" outcome.
    static let killCount = 20

    /// The helper SwiftPM built beside this test bundle.
    static var child: URL? {
        var folders: [URL] = Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        if let path = Bundle.main.executablePath { folders.append(URL(fileURLWithPath: path).deletingLastPathComponent()) }
        folders.append(packageRoot.appendingPathComponent(".build/debug"))
        return folders.map { $0.appendingPathComponent("sqlite-crash-child") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// What one run of the child did before it ended or was killed.
    struct ChildRun {
        var reachedSave = false
        var finishedSave = false
        var secondsInSave: Double?
        var killed = false
        var status: Int32 = 0
        var standardError = ""
    }

    /// Runs the child for `generation`; when `killAfter` is given, sends SIGKILL that many
    /// seconds after it starts saving.
    func runChild(store: String, generation: Int, entries: Int = Self.entryCount,
                  killAfter delay: Double? = nil) throws -> ChildRun {
        try runChild([Self.modelPath, store, String(generation), String(entries)], killAfter: delay)
    }

    /// Runs the child with `arguments`; when `killAfter` is given, sends SIGKILL that many
    /// seconds after it says `started` (it says `finished` when done).
    func runChild(_ arguments: [String], started: String = "saving", finished: String = "saved",
                  killAfter delay: Double? = nil) throws -> ChildRun {
        let process = Process()
        guard let child = Self.child else { throw MissingChild() }
        process.executableURL = child
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()

        var run = ChildRun()
        var lines = LineReader(output.fileHandleForReading)
        if lines.next() == started {
            run.reachedSave = true
            let savingSince = Date()
            if let delay {
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGKILL)
            }
            if lines.next() == finished {
                run.finishedSave = true
                run.secondsInSave = Date().timeIntervalSince(savingSince)
            }
        }
        process.waitUntilExit()
        run.killed = process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGKILL
        run.status = process.terminationStatus
        run.standardError = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        return run
    }

    /// The generation the file holds, after checking that it holds exactly one whole generation
    /// and that SQLite's own integrity check passes.
    func wholeGeneration(in store: String) throws -> Int64 {
        let queue = try DatabaseQueue(path: store)
        let integrity = try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        try queue.close()
        #expect(integrity == ["ok"])

        let loaded = ModelLoader().load(paths: [Self.modelPath])
        let model = try #require(loaded.models.first)
        let reopened = try SQLiteObjectStore(path: store, model: model)
        defer { try? reopened.close() }
        let ledgers = try reopened.fetch("Ledger")
        #expect(ledgers.count == 1, "one ledger, not \(ledgers.count)")
        let ledger = try #require(ledgers.first)
        guard case .integer(let generation) = try reopened.value("generation", of: ledger) else {
            Issue.record("the ledger has no generation")
            return -1
        }
        let entries = try reopened.fetch("Entry")
        #expect(entries.count == Self.entryCount, "generation \(generation) has \(entries.count) entries")
        var serials = Set<Int64>()
        var strays = 0
        for entry in entries {
            if case .integer(let serial) = try reopened.value("serial", of: entry) { serials.insert(serial) }
            if try reopened.value("generation", of: entry) != .integer(generation)
                || reopened.related(entry, "ledger") != [ledger] {
                strays += 1
            }
        }
        #expect(strays == 0, "\(strays) entries belong to another generation than the ledger's \(generation)")
        #expect(serials == Set(0..<Int64(Self.entryCount)))
        return generation
    }

    @Test func aKilledSaveLeavesTheOldStateOrTheNewOneNeverAMix() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let store = folder.appendingPathComponent("Ledger.sqlite").path

        // Generations 1 and 2, saved in full: the second replaces a ledger as every later run
        // does, and measures how long that save takes here, to spread the kill points over it.
        for generation in 1...2 {
            let run = try runChild(store: store, generation: generation)
            #expect(run.finishedSave && run.status == 0, "the child failed: \(run.standardError)")
        }
        var committed = try wholeGeneration(in: store)
        #expect(committed == 2)
        let measured = try runChild(store: store, generation: 3)
        let saveSeconds = max(measured.secondsInSave ?? 0.05, 0.005)
        committed = try wholeGeneration(in: store)
        #expect(committed == 3)

        var outcomes: [String] = []
        for kill in 0..<Self.killCount {
            let generation = kill + 4
            // From the instant the save starts to a little past its usual end.
            let delay = saveSeconds * 1.2 * Double(kill) / Double(Self.killCount - 1)
            let run = try runChild(store: store, generation: generation, killAfter: delay)
            #expect(run.reachedSave, "the child failed before saving: \(run.standardError)")
            #expect(run.killed || run.finishedSave, "the child ended on its own without saving: \(run.standardError)")

            let found = try wholeGeneration(in: store)
            #expect(found == committed || found == Int64(generation),
                    "after a kill \(delay)s into the save the file holds generation \(found), not \(committed) or \(generation)")
            if run.finishedSave { #expect(found == Int64(generation), "a save that finished must be durable") }
            outcomes.append(found == committed ? "old" : "new")
            committed = found
        }
        // Not asserted (it depends on the machine's speed), but shown when the test is run verbosely.
        print("crash safety: \(Self.killCount) kills over a \(saveSeconds)s save; outcomes: \(outcomes)")
    }
}

/// The same guarantee for a migration: the store is migrated in place in one SQLite
/// transaction (`SQLiteObjectStore.migrateStore`), so a kill at any point leaves the file as
/// exactly the old version, every row intact, or exactly the new one, every row migrated.
@Suite(.serialized) struct MigrationCrashSafetyTests {
    static let version2Path = CrashSafetyTests.packageRoot.appendingPathComponent("Fixtures/CrashSafety/Ledger 2.xcdatamodel").path
    /// Rows migrated: enough that the migration writes many pages before it commits.
    static let entryCount = 20_000
    static let killCount = 12

    enum Found: String, Equatable {
        case old, new
    }

    static func model(_ path: String) throws -> Model {
        let loaded = ModelLoader().load(paths: [path])
        return try #require(loaded.models.first)
    }

    /// Which version the file holds, after checking that SQLite finds it intact and that every
    /// row is there, as that version has it.
    func wholeVersion(in store: String) throws -> Found? {
        let queue = try DatabaseQueue(path: store)
        let integrity = try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }
        try queue.close()
        #expect(integrity == ["ok"])
        let old = try Self.model(CrashSafetyTests.modelPath), new = try Self.model(Self.version2Path)
        if let store = try? SQLiteObjectStore(path: store, model: old) {
            defer { try? store.close() }
            #expect(try store.count("Entry") == Self.entryCount)
            #expect(try store.count("Ledger") == 1)
        } else {
            let reopened = try SQLiteObjectStore(path: store, model: new)
            defer { try? reopened.close() }
            let ledger = try #require(try reopened.fetch("Ledger").first)
            #expect(try reopened.related(ledger, "postings").count == Self.entryCount)
            #expect(try reopened.count("Account") == 0)
        }
        let tables = try DatabaseQueue(path: store).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        // Every row, by SQL: the serials (numbers) 0..<N once each, and nothing of the other version.
        let (table, column) = tables.contains("ZENTRY") ? ("ZENTRY", "ZSERIAL") : ("ZPOSTING", "ZNUMBER")
        let summary = try DatabaseQueue(path: store).read { db in
            try Row.fetchOne(db, sql: "SELECT COUNT(*), COUNT(DISTINCT \(column)), MIN(\(column)), MAX(\(column)) FROM \(table)")!
        }
        #expect([summary[0], summary[1], summary[2], summary[3]] as [Int] == [Self.entryCount, Self.entryCount, 0, Self.entryCount - 1])
        if table == "ZENTRY" {
            #expect(!tables.contains("ZPOSTING") && !tables.contains("ZACCOUNT"), "\(tables)")
            return .old
        }
        #expect(!tables.contains("ZENTRY"), "\(tables)")
        let positions = try DatabaseQueue(path: store).read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(DISTINCT Z_FOK_LEDGER) FROM ZPOSTING WHERE ZCLEARED = 0")
        }
        #expect(positions == Self.entryCount)
        return .new
    }

    func copy(_ source: String, to destination: String) throws {
        let files = FileManager.default
        for suffix in ["", "-wal", "-shm"] {
            try? files.removeItem(atPath: destination + suffix)
            if files.fileExists(atPath: source + suffix) { try files.copyItem(atPath: source + suffix, toPath: destination + suffix) }
        }
    }

    @Test func aKilledMigrationLeavesTheOldVersionOrTheNewOneNeverAMix() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-crash-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let original = folder.appendingPathComponent("Original.sqlite").path
        let store = folder.appendingPathComponent("Ledger.sqlite").path
        let harness = CrashSafetyTests()
        let filled = try harness.runChild(store: original, generation: 1, entries: Self.entryCount)
        #expect(filled.finishedSave && filled.status == 0, "the child failed: \(filled.standardError)")
        let migrate = ["migrate", CrashSafetyTests.modelPath, Self.version2Path, store]

        // One whole migration, to check its result and spread the kill points over its time.
        try copy(original, to: store)
        #expect(try wholeVersion(in: store) == .old)
        let measured = try harness.runChild(migrate, started: "migrating", finished: "migrated")
        #expect(measured.finishedSave && measured.status == 0, "the child failed: \(measured.standardError)")
        #expect(try wholeVersion(in: store) == .new)
        let seconds = max(measured.secondsInSave ?? 0.05, 0.005)

        var outcomes: [Found] = []
        for kill in 0..<Self.killCount {
            try copy(original, to: store)
            let delay = seconds * 1.2 * Double(kill) / Double(Self.killCount - 1)
            let run = try harness.runChild(migrate, started: "migrating", finished: "migrated", killAfter: delay)
            #expect(run.reachedSave, "the child failed before migrating: \(run.standardError)")
            #expect(run.killed || run.finishedSave, "the child ended on its own without migrating: \(run.standardError)")
            let found = try wholeVersion(in: store)
            #expect(found != nil)
            if run.finishedSave { #expect(found == .new, "a migration that finished must be durable") }
            if let found { outcomes.append(found) }
        }
        print("migration crash safety: \(Self.killCount) kills over a \(seconds)s migration; outcomes: \(outcomes.map(\.rawValue))")
    }
}

struct MissingChild: Error, CustomStringConvertible {
    var description: String { "sqlite-crash-child is not built next to the tests; run 'swift build' first" }
}

/// Lines from a pipe, read as they arrive.
struct LineReader {
    let handle: FileHandle
    var buffer = Data()

    init(_ handle: FileHandle) {
        self.handle = handle
    }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let chunk = handle.availableData
            guard !chunk.isEmpty else { return nil }
            buffer.append(chunk)
        }
    }
}

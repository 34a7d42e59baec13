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
    func runChild(store: String, generation: Int, killAfter delay: Double? = nil) throws -> ChildRun {
        let process = Process()
        guard let child = Self.child else { throw MissingChild() }
        process.executableURL = child
        process.arguments = [Self.modelPath, store, String(generation), String(Self.entryCount)]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()

        var run = ChildRun()
        var lines = LineReader(output.fileHandleForReading)
        if lines.next() == "saving" {
            run.reachedSave = true
            let savingSince = Date()
            if let delay {
                Thread.sleep(forTimeInterval: delay)
                kill(process.processIdentifier, SIGKILL)
            }
            if lines.next() == "saved" {
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

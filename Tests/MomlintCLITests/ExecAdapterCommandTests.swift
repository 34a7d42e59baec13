import Foundation
import Testing

/// Whether `python3` is on the PATH, as the `exec:` commands below need.
enum Python {
    static let isAvailable: Bool = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/python3") }
    }()
}

/// `momlint conformance --adapter exec:COMMAND` end to end, with the Python example shims.
@Suite(.enabled(if: Python.isAvailable, "python3 is needed to run the example shims"))
struct ExecAdapterCommandTests {
    @Test func pythonExamplePassesTheSuite() throws {
        let output = try MomlintProcess.run([
            "conformance", "--adapter", "exec:python3 Examples/python-store/shim.py", "--filter", "deny.*", "--filter", "constraints.*",
        ])
        #expect(output.status == 0, "\(output.standardOutput.suffix(2000))\(output.standardError)")
        // Reports name the store as its shim's handshake does, not by the raw command.
        #expect(output.standardOutput.contains("\npython-store: "))
        #expect(output.standardOutput.contains("PASS  deny.non-empty-to-many-fails (python-store)\n"))
        #expect(!output.standardOutput.contains("FAIL"))
    }

    @Test func deviantExampleIsGreenWithItsExpectedFailures() throws {
        let output = try MomlintProcess.run([
            "conformance", "--adapter", "exec:python3 Examples/python-store-deviant/shim.py",
            "--expected-failures", "Examples/python-store-deviant/expected-failures.txt",
        ])
        #expect(output.status == 0, "\(output.standardOutput.suffix(2000))\(output.standardError)")
        #expect(output.standardOutput.contains("expected to fail"))
        #expect(output.standardOutput.contains("skipped"))
    }

    @Test func deviantExampleFailsWithoutThem() throws {
        let output = try MomlintProcess.run([
            "conformance", "--adapter", "exec:python3 Examples/python-store-deviant/shim.py", "--filter", "deny.non-empty-to-many-fails",
        ])
        #expect(output.status == 1)
        #expect(output.standardOutput.contains("expected the save to fail with 1600"))
    }

    /// A shim's stderr is quoted one line per line, each after `  | ` and escaped — as
    /// docs/implementers.md §4 shows it (it once showed lines the reporter printed as a literal
    /// `\n` on one line, and the raw `exec:` name where the shim's own name is printed).
    @Test func aCrashQuotesTheShimsStderrLineByLineAsTheGuideShows() throws {
        let output = try MomlintProcess.run([
            "conformance", "--adapter", "exec:python3 Tests/ProcessAdapterTests/Shims/misbehaving.py crash cascade.chain",
            "--filter", "cascade.chain",
        ])
        #expect(output.status == 1, "\(output.standardError)")
        let guide = try String(contentsOf: MomlintProcess.packageRoot.appendingPathComponent("docs/implementers.md"),
                               encoding: .utf8)
        let example = try #require(guide.range(of: "FAIL  cascade.chain (my-store)"))
        let documented = guide[example.lowerBound...].prefix { $0 != "`" }.split(separator: "\n")
        for (lines, name) in [(output.standardOutput.split(separator: "\n"), "misbehaving"), (documented, "my-store")] {
            #expect(lines.first?.hasPrefix("FAIL  cascade.chain (\(name)) Fixtures/Scenarios/cascade/chain.yaml:11: ") == true,
                    "\(lines)")
            #expect(lines.first?.hasSuffix(". Its stderr ended with:") == true, "\(lines)")
            #expect(lines.dropFirst().dropLast().allSatisfy { $0.hasPrefix("  | ") }, "\(lines)")
            #expect(lines.contains("  | RuntimeError: simulated crash in the store"), "\(lines)")
            #expect(lines.last == "\(name): 1 scenario: 0 passed, 1 failed", "\(lines)")
        }
    }

    @Test func aShimThatCannotStartIsAnInputError() throws {
        let output = try MomlintProcess.run(["conformance", "--adapter", "exec:/nonexistent/shim"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("error: the shim '/nonexistent/shim' closed its stdout before answering request 1 (hello)"),
                "\(output.standardError)")
    }
}

#if os(Linux)
/// At the end of `momlint conformance`, every process it started, and everything they started,
/// is gone: a background child of the shell, a child that left the group with `setsid` and lost
/// its parent, a shim whose scenario thread was abandoned at `--time-limit`.
@Suite(.enabled(if: Python.isAvailable, "python3 is needed to run the example shims"))
struct ShimLifetimeCommandTests {
    /// Processes (not zombies) whose command line is exactly `command`.
    static func running(_ command: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty else { return nil }
            return data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.joined(separator: " ") == command
                ? pid : nil
        }
    }

    /// Waits (at most a minute: a guard against a hang, not a measurement) until nothing runs `command`.
    static func stillRunningAfterAWhile(_ command: String) -> [Int32] {
        for _ in 0..<600 {
            if running(command).isEmpty { return [] }
            usleep(100_000)
        }
        return running(command)
    }

    @Test func orphansThatLeftTheGroupAreGoneAfterTheRun() throws {
        let orphan = "sleep \(Int.random(in: 100_000...999_999)).25"
        let background = "sleep \(Int.random(in: 100_000...999_999)).75"
        defer { for pid in Self.running(orphan) + Self.running(background) { kill(pid, SIGKILL) } }
        // `( setsid … & )`: the subshell exits at once, so the sleeper has left the group and lost its parent.
        let output = try MomlintProcess.run([
            "conformance", "--adapter",
            "exec:( setsid \(orphan) & ); \(background) & exec python3 Examples/python-store/shim.py",
            "--filter", "deny.non-empty-to-many-fails",
        ])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(Self.stillRunningAfterAWhile(orphan).isEmpty, "a setsid orphan outlived momlint")
        #expect(Self.stillRunningAfterAWhile(background).isEmpty, "the shell's background child outlived momlint")
    }

    /// A scenario limit below the request limit: the runner abandons the thread, and the shim,
    /// hung in its request, must still be gone when momlint exits.
    @Test func aShimAbandonedAtTheTimeLimitIsGoneAfterTheRun() throws {
        let marker = Int.random(in: 100_000...999_999)
        let hang = "sleep \(marker).5"
        defer { for pid in Self.running(hang) { kill(pid, SIGKILL) } }
        // Answers the handshake, then hangs in a child on every later request.
        let shim = #"read l; echo '{"id":1,"hello":{"contractMajorVersion":1,"name":"hang","unsupportedFeatures":[]}}'; "#
            + "read l; exec \(hang)"
        let output = try MomlintProcess.run([
            "conformance", "--adapter", "exec:" + shim, "--filter", "deny.non-empty-to-many-fails", "--time-limit", "1",
        ])
        #expect(output.status == 1, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardOutput.contains("time limit"), "\(output.standardOutput)")
        #expect(Self.stillRunningAfterAWhile(hang).isEmpty, "the abandoned shim outlived momlint")
    }

    /// Every live (not zombie) descendant of `root`, from /proc's parent links.
    static func descendants(of root: Int32) -> Set<Int32> {
        var parent: [Int32: Int32] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, fields[0] != "Z", let ppid = Int32(fields[1]) else { continue }
            parent[pid] = ppid
        }
        var found: Set<Int32> = []
        var changed = true
        while changed {
            changed = false
            for (pid, ppid) in parent where !found.contains(pid) && (ppid == root || found.contains(ppid)) {
                found.insert(pid)
                changed = true
            }
        }
        return found
    }

    /// Whether `pid` is gone or a zombie (killed, not yet reaped by whoever adopted it).
    static func isGone(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].split(separator: " ").first == "Z"
    }

    /// Shims run in process groups of their own, so a signal to momlint does not reach them:
    /// momlint stops them itself and exits with 128 + the signal. `sleep` once ran on with
    /// parent 1 after momlint got SIGTERM, SIGHUP or SIGINT (issue 21, item 5).
    @Test(arguments: [SIGTERM, SIGHUP, SIGINT])
    func aSignalledRunLeavesNoDescendantBehind(_ signal: Int32) throws {
        let background = "sleep \(Int.random(in: 100_000...999_999)).\(signal)"
        defer { for pid in Self.running(background) { kill(pid, SIGKILL) } }
        // A run long enough (200,000 requests through Python: half a minute or more) that the
        // signal arrives while the shim works, however slowly this test is scheduled.
        let process = Process()
        process.executableURL = try MomlintProcess.executable
        process.arguments = ["conformance", "--adapter", "exec:\(background) & exec python3 Examples/python-store/shim.py",
                             "--filter", "cascade.very-deep-chain", "--time-limit", "600"]
        process.currentDirectoryURL = MomlintProcess.packageRoot
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        // Waits (a guard against a hang, not a measurement) until the shim's shell has started `sleep`.
        for _ in 0..<600 where Self.running(background).isEmpty { usleep(100_000) }
        let family = Self.descendants(of: process.processIdentifier)
        try #require(process.isRunning, "the run ended before the signal")
        #expect(!Self.running(background).isEmpty && family.count >= 2, "the shim never started: \(family)")
        kill(process.processIdentifier, signal)
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit && process.terminationStatus == 128 + signal,
                "\(process.terminationReason) \(process.terminationStatus)")
        #expect(String(decoding: stderr, as: UTF8.self).contains("momlint: stopped by SIG"), "\(String(decoding: stderr, as: UTF8.self))")
        for _ in 0..<100 where !family.allSatisfy(Self.isGone) { usleep(100_000) }
        #expect(family.filter { !Self.isGone($0) }.sorted() == [], "descendants outlived momlint")
        #expect(Self.stillRunningAfterAWhile(background).isEmpty, "the shim's background child outlived momlint")
    }
}
#endif

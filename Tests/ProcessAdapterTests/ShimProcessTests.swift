import Conformance
import Foundation
@testable import ProcessAdapter
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// How a shim is started and ended, below the protocol: its signals, and what it leaves behind.
@Suite(.serialized) struct ShimProcessTests {
    /// Lines of `/proc/self/status` the command prints, by key (`SigBlk` → hex mask).
    static func statusFields(_ process: ShimProcess) throws -> [String: String] {
        var fields: [String: String] = [:]
        while fields.count < 2 {
            let line = try process.readLine(before: .now + .seconds(30))
            let parts = line.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2 { fields[parts[0]] = parts[1] }
        }
        return fields
    }

    #if os(Linux)
    /// The thread that starts a shim may block signals (dispatch's workers block SIGTERM, SIGHUP,
    /// SIGALRM, SIGCHLD, …): the shim must start with none blocked and none ignored, or
    /// `kill PID` and `signal.alarm` do nothing in it.
    @Test func shimStartsWithNoSignalBlockedOrIgnored() throws {
        var blocked = sigset_t(), previous = sigset_t()
        sigemptyset(&blocked)
        for signal in [SIGTERM, SIGHUP, SIGINT, SIGALRM, SIGCHLD, SIGUSR1] { sigaddset(&blocked, signal) }
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let process = try ShimProcess(command: "exec grep -E '^Sig(Blk|Ign):' /proc/self/status")
        defer { process.stop() }
        let fields = try Self.statusFields(process)
        #expect(fields["SigBlk"] == "0000000000000000")
        // Signals 1–31; glibc reserves 32 and 33 for itself (threads, setxid), and no program can
        // change how they are handled, so they are not the shim's to have.
        let ignored = UInt64(fields["SigIgn"] ?? "", radix: 16)
        #expect(ignored.map { $0 & 0x7FFF_FFFF } == 0, "SigIgn \(fields["SigIgn"] ?? "?")")
    }
    #endif

    #if os(Linux)
    /// Processes (not zombies) whose command line is exactly `command` (arguments joined by spaces).
    static func running(_ command: String) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry),
                  let data = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline"), !data.isEmpty else { return nil }
            let arguments = data.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            return arguments.joined(separator: " ") == command ? pid : nil
        }
    }

    /// Waits (at most a minute, a guard against a hang, not a measurement) until no process runs
    /// `command`; returns those still running.
    static func waitUntilGone(_ command: String) -> [Int32] {
        for _ in 0..<600 {
            if running(command).isEmpty { return [] }
            usleep(100_000)
        }
        return running(command)
    }

    /// A `sleep` command no other test or process runs.
    static func uniqueSleep() -> String {
        "sleep \(Int.random(in: 100_000...999_999)).5"
    }

    /// `exec:sleep 321 & …`: once the shell had exited, nothing it started was killed.
    @Test func finishingAShimWhoseShellExitedStopsWhatItStarted() throws {
        let sleeper = Self.uniqueSleep()
        let process = try ShimProcess(command: "\(sleeper) & echo started")
        #expect(try process.readLine(before: .now + .seconds(60)) == "started")
        for _ in 0..<600 where Self.running(sleeper).isEmpty { usleep(100_000) }
        #expect(!Self.running(sleeper).isEmpty)
        process.finish(grace: .seconds(30))
        #expect(Self.waitUntilGone(sleeper).isEmpty, "the shim's background process outlived it")
    }

    /// A child that calls `setsid` leaves the process group; it is found by its parent chain.
    @Test func stoppingAShimStopsAChildThatLeftItsGroup() throws {
        let sleeper = Self.uniqueSleep()
        let process = try ShimProcess(command: "setsid \(sleeper) & echo started; exec cat")
        #expect(try process.readLine(before: .now + .seconds(60)) == "started")
        for _ in 0..<600 where Self.running(sleeper).isEmpty { usleep(100_000) }
        #expect(!Self.running(sleeper).isEmpty)
        process.stop()
        #expect(Self.waitUntilGone(sleeper).isEmpty, "a child that called setsid escaped the stop")
    }
    #endif

    /// A shim that stops reading its stdin: the write gives up at its deadline instead of blocking
    /// for ever once the socket's buffer is full.
    @Test func writingToAShimThatStoppedReadingHasADeadline() throws {
        let process = try ShimProcess(command: "exec sleep 600")
        defer { process.stop() }
        let line = String(repeating: "x", count: 8 << 20)
        #expect(process.writeLine(line, before: .now + .milliseconds(200)) == false)
    }

    /// A shim that answers the handshake, then prints something that is not JSON and exits 3:
    /// the message says it exited, with its status (it once said "was stopped").
    @Test func aShimThatExitedIsReportedAsExitedWithItsStatus() throws {
        let hello = #"{"id":1,"hello":{"contractMajorVersion":1,"name":"quitter","unsupportedFeatures":[]}}"#
        let connection = try ShimConnection(
            command: "read line; echo '\(hello)'; read line; echo 'not json'; exit 3", timeLimit: .seconds(60))
        let error = try #require(throws: StoreAdapterError.self) {
            _ = try connection.exchange("reset", expecting: ["done"]) { id in #"{"id":\#(id),"reset":{}}"# }
        }
        #expect(error.message.contains("it exited with status 3"), "\(error.message)")
        #expect(!error.message.contains("was stopped"))
    }
}

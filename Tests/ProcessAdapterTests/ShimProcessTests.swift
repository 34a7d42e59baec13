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
        #expect(fields["SigIgn"] == "0000000000000000")
    }
    #endif
}

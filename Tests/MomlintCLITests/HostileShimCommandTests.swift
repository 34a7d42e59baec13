import Foundation
import Testing

/// Issue 39, item 7: a shim that answers its handshake and nothing after once made a full
/// conformance run print nothing for over ten minutes (each scenario waited out its request's
/// time limit), and a shim that closed its stdin was reported as a time-out.
@Suite(.enabled(if: Workspace.momlintIsBuilt && FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"),
                "momlint is not built, or python3 is absent"))
struct HostileShimCommandTests {
    static let helloOnly = """
        import json, os, sys, time
        request = json.loads(sys.stdin.readline())
        print(json.dumps({"id": request["id"], "hello": {"contractMajorVersion": 1, "name": "hello-only"}}), flush=True)
        if len(sys.argv) > 1:
            os.close(0)
        time.sleep(600)
        """

    static func shim() throws -> (folder: URL, script: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-shim-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let script = folder.appendingPathComponent("hello_only.py").path
        try helloOnly.write(toFile: script, atomically: true, encoding: .utf8)
        return (folder, script)
    }

    @Test func aShimThatAnswersOnlyHelloFailsFastWithProgress() throws {
        let (folder, script) = try Self.shim()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try HostileStoreCommandTests.run(["conformance", "--adapter", "exec:python3 '\(script)'"],
                                                       in: MomlintProcess.packageRoot)
        #expect(outcome.status == 1)
        #expect(outcome.seconds < 28, "the run took \(outcome.seconds) s")
        // A line per scenario on stderr, as it ends.
        let progress = outcome.standardError.split(separator: "\n").filter { $0.hasPrefix("[") }
        #expect(progress.count > 100)
        #expect(progress.first?.hasPrefix("[1/") == true && progress.first?.contains("] hello-only ") == true, "\(progress.first ?? "")")
        #expect(outcome.standardOutput.contains("did not answer request 2 (open '"))
        #expect(outcome.standardOutput.contains("not run: the shim 'python3 '\(script)'' failed to open a store in each of the first 3 scenarios, so no other scenario was run; the last failure: "))
    }

    @Test func aShimThatClosesItsStdinIsSaidToHaveDoneSo() throws {
        let (folder, script) = try Self.shim()
        defer { try? FileManager.default.removeItem(at: folder) }
        let outcome = try HostileStoreCommandTests.run(["conformance", "--adapter", "exec:exec python3 '\(script)' close",
                                                        "--filter", "cascade.chain"], in: MomlintProcess.packageRoot)
        #expect(outcome.status == 1)
        #expect(outcome.standardOutput.contains("closed its stdin (it reads no more requests) before request 2 (open 'cascade.chain')"),
                "\(outcome.standardOutput)")
    }
}

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

    @Test func aShimThatCannotStartIsAnInputError() throws {
        let output = try MomlintProcess.run(["conformance", "--adapter", "exec:/nonexistent/shim"])
        #expect(output.status == 2)
        #expect(output.standardError.contains("error: the shim '/nonexistent/shim' closed its stdout before answering request 1 (hello)"),
                "\(output.standardError)")
    }
}

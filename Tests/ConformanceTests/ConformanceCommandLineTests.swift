import Conformance
import Foundation
import Testing

/// The command a matrix names, and `--check-report` prints, to regenerate it.
@Suite struct ConformanceCommandLineTests {
    @Test func theShippedReportsCommandIsUnchanged() {
        #expect(ConformanceCommandLine(adapters: ["reference", "sqlite"]).writingReport(to: "reports/conformance.md")
            == "momlint conformance --adapter reference --adapter sqlite --write-report reports/conformance.md")
    }

    @Test func everyOptionThatShapesTheMatrixIsRepeated() {
        let commandLine = ConformanceCommandLine(
            adapters: ["exec:python3 shim.py"], scenarioDirectory: "my scenarios", allowedModelRoots: ["../models"],
            expectedFailureFiles: ["python-store=xfail.txt"], filters: ["deny.*", "cascade.to-one"], timeLimit: 2.5)
        #expect(commandLine.writingReport(to: "out.md") == "momlint conformance --adapter 'exec:python3 shim.py' "
            + "--scenarios 'my scenarios' --allow-models-under ../models --expected-failures python-store=xfail.txt "
            + "--filter 'deny.*' --filter cascade.to-one --time-limit 2.5 --write-report out.md")
        #expect(ConformanceCommandLine(adapters: ["reference"], timeLimit: 60).writingReport(to: "r.md")
            == "momlint conformance --adapter reference --time-limit 60 --write-report r.md")
    }

    static let awkwardArguments = ["it's", "a b", "$HOME", "`id`", "a\nb", "tab\there", "\u{202E}txt", "\u{1B}[31m",
                                   "back\\slash'quote", "", "é-ü", "*"]

    @Test func quotingKeepsTheCommandOnOneLine() {
        for argument in Self.awkwardArguments {
            let quoted = ConformanceCommandLine.shellQuoted(argument)
            #expect(!quoted.unicodeScalars.contains(where: { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) }),
                    "\(quoted)")
        }
        #expect(ConformanceCommandLine.shellQuoted("a\nb'c") == #"$'a\nb\'c'"#)
        #expect(ConformanceCommandLine.shellQuoted("it's") == #"'it'\''s'"#)
    }

    /// A shell reads each quoted argument back as it was (bash: `$'…'` is POSIX.1-2024, which
    /// older `sh` implementations lack).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/bin/bash"), "needs bash"))
    func aShellReadsEveryArgumentBack() throws {
        for argument in Self.awkwardArguments {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/bash")
            process.arguments = ["-c", "printf '%s' " + ConformanceCommandLine.shellQuoted(argument)]
            let output = Pipe()
            process.standardOutput = output
            try process.run()
            let data = output.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            #expect(String(decoding: data, as: UTF8.self) == argument, "\(ConformanceCommandLine.shellQuoted(argument))")
        }
    }
}

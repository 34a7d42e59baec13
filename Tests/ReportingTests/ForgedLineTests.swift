import DataModel
import Foundation
import Linting
import MomlintTestSupport
import Reporting
import Testing

/// A model's path is text from the repository: a folder named with ESC, BEL, U+202E or a line
/// break must not reach a terminal or a CI log raw, in any reporter (docs/security.md).
@Suite struct ForgedLineTests {
    static let hostileScalars: [Unicode.Scalar] = ["\u{1B}", "\u{07}", "\u{202E}", "\n", "\r", "\u{85}", "\u{2028}"]

    /// The Library fixture copied into a folder whose name holds every hostile character, and
    /// a broken model beside it (a load failure names its path too).
    static func hostileRun() throws -> (run: LintRun, folder: String) {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("momlint-forged-\(UUID().uuidString)-\u{1B}[31m\u{07}\u{202E}lmx.\n::warning file=x::\r\u{85}\u{2028}").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestPaths.library, toPath: folder + "/Library.xcdatamodeld")
        try FileManager.default.copyItem(atPath: TestPaths.broken, toPath: folder + "/Broken.xcdatamodel")
        let run = LintRun(paths: [folder + "/Library.xcdatamodeld", folder + "/Broken.xcdatamodel"],
                          engine: LintEngine(rules: TestRules.reporting))
        return (run, folder)
    }

    @Test(arguments: ReporterCatalogue.all.map { $0.name })
    func noReporterPrintsAControlOrBidiCharacter(reporterName: String) throws {
        let (run, folder) = try Self.hostileRun()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(!run.findings.isEmpty && !run.loadFailures.isEmpty)
        let reporter = try #require(ReporterCatalogue.all.first { $0.name == reporterName })
        let report = reporter.report(run, context: Fixture.context())
        let raw = Self.hostileScalars.filter { $0 != "\n" }.filter { report.unicodeScalars.contains($0) }
        #expect(raw.isEmpty, "\(reporterName) printed raw \(raw.map { String($0.value, radix: 16) })")
        // No line of the report is one the path started: each starts as the reporter starts lines.
        #expect(!report.split(separator: "\n").contains { $0.hasPrefix("::warning file=x") },
                "\(reporterName) let the path start a line")
    }

    /// The JUnit report of a hostile path reads back, with Python's parser, as the path with
    /// the controls XML cannot hold replaced by U+FFFD and every line break kept, in attributes
    /// too (the conformance reporter escapes the same way: `XMLText`).
    @Test(.enabled(if: PythonXMLReader.isAvailable))
    func junitReadsBackWithControlsReplacedAndLineBreaksKept() throws {
        let (run, folder) = try Self.hostileRun()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = JUnitReporter.report(run, context: Fixture.context())
        let elements = try PythonXMLReader.elements(of: report)
        let readable = "\u{FFFD}[31m\u{FFFD}\u{202E}lmx_\n::warning file=x::\r\u{85}\u{2028}"
        let cases = elements.filter { $0.tag == "testcase" }
        #expect(cases.count > 1)
        #expect(cases.allSatisfy { $0.attributes["classname"]?.contains(readable) == true },
                "\(cases.map { $0.attributes["classname"] ?? "" })")
        #expect(!report.contains("\u{1B}") && !report.contains("\u{07}") && !report.contains("?[31m"))
    }

    /// Formerly the github reporter kept ESC, BEL and U+202E in `file=`.
    @Test func githubCommandsKeepEveryAnnotationOnItsLine() throws {
        let (run, folder) = try Self.hostileRun()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let report = GitHubActionsReporter.report(run, context: Fixture.context())
        let lines = report.split(separator: "\n")
        #expect(lines.count == run.findings.count + run.loadFailures.count + 1)
        #expect(lines.dropLast().allSatisfy { $0.hasPrefix("::warning file=") || $0.hasPrefix("::error file=") })
        #expect(report.contains("\\u{1B}[31m\\u{7}\\u{202E}lmx.\\n%3A%3Awarning file=x%3A%3A\\r"))
    }
}

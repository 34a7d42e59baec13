import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Linting
import Reporting
import Testing

/// Every reporter over the real-world corpus (`../shared/corpus/models`, when present): real
/// names, paths with spaces, legacy models that fail to load. Machine formats must stay valid.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: TestPaths.corpus),
                "the corpus is not beside the package (../shared/corpus/models)"))
struct CorpusReportTests {
    static let run = LintRun(paths: [TestPaths.corpus], loader: .init(loadsAllVersions: true))
    static let context = ReportContext(engine: LintEngine(), toolVersion: Fixture.toolVersion,
                                       workingDirectory: TestPaths.packageRoot)

    @Test func jsonParsesAndCountsAgree() throws {
        let object = try JSONSerialization.jsonObject(with: Data(JSONReporter.report(Self.run, context: Self.context).utf8))
        let report = try #require(object as? [String: Any])
        #expect((report["findings"] as? [Any])?.count == Self.run.findings.count)
        #expect((report["models"] as? [Any])?.count == Self.run.reports.count)
        #expect((report["loadErrors"] as? [Any])?.count == Self.run.loadFailures.count)
    }

    @Test func junitHasACaseForEveryFindingAndEveryCleanRuleOfEveryModel() throws {
        let xml = JUnitReporter.report(Self.run, context: Self.context)
        let root = try #require(try XMLDocument(data: Data(xml.utf8)).rootElement())
        // Per model: one case per finding, one per rule that found nothing there.
        let expectedCases = Self.run.reports.reduce(0) { total, report in
            let failingRules = Set(report.findings.map(\.ruleID))
            return total + report.findings.count + Self.context.rules.filter { !failingRules.contains($0.id) }.count
        } + Self.run.loadFailures.count
        #expect(root.attribute(forName: "tests")?.stringValue == String(expectedCases))
        let cases = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
        #expect(cases.allSatisfy { $0.elements(forName: "failure").count <= 1 })
        #expect(cases.flatMap { $0.elements(forName: "failure") }.count == Self.run.findings.count)
        try JenkinsJUnitSchema.validate(root)
    }

    @Test(.enabled(if: SARIFReporterTests.validator != nil, "needs python3 with jsonschema: python3 -m pip install jsonschema"))
    func sarifValidatesAndFingerprintsAreUnique() throws {
        let problems = try SARIFReporterTests.schemaProblems(in: SARIFReporter.report(Self.run, context: Self.context))
        #expect(problems == nil, "corpus SARIF does not validate: \(problems ?? "")")
    }

    @Test func githubAnnotationsAreOneLineEach() {
        let lines = GitHubActionsReporter.report(Self.run, context: Self.context).split(separator: "\n", omittingEmptySubsequences: false)
        // One command per finding and per load failure, the totals line, and the final newline.
        #expect(lines.count == Self.run.findings.count + Self.run.loadFailures.count + 2)
        #expect(lines.dropLast(2).allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") })
    }
}

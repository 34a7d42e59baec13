import Foundation
import Linting
@testable import Reporting
import Testing

/// Every reporter against its committed expected output (`Expected/`), on a fixture with an
/// error, warnings, a finding about the model as a whole, and an input that fails to load.
/// Regenerate after an intended change with `MOMLINT_UPDATE_EXPECTED=1 swift test --filter ReporterOutputTests`.
@Suite struct ReporterOutputTests {
    static let cases: [(reporter: String, file: String)] = [
        ("xcode", "fixture.xcode.txt"), ("json", "fixture.json"), ("junit", "fixture.junit.xml"),
        ("sarif", "fixture.sarif"), ("github", "fixture.github.txt"), ("summary", "fixture.summary.md"),
    ]

    @Test(arguments: cases)
    func reporterMatchesExpectedOutput(reporter name: String, file: String) throws {
        let reporter = try #require(ReporterCatalogue.reporter(named: name))
        let actual = reporter.report(Fixture.run(), context: Fixture.context())
        #expect(Fixture.normalized(actual) == (try Fixture.expected(file, actual: actual)))
    }

    @Test func fixtureHasErrorsWarningsAndALoadFailure() {
        let run = Fixture.run()
        #expect(run.count(of: .error) == 1)
        #expect(run.count(of: .warning) == 2)
        #expect(run.loadFailures.count == 1)
    }

    @Test func everyReporterIsListedOnceByName() {
        #expect(Set(ReporterCatalogue.names).count == ReporterCatalogue.all.count)
        #expect(Set(ReporterCatalogue.names) == Set(Self.cases.map(\.reporter)))
    }

    @Test func xcodeLineIsTheFormatLintPrintedBefore() {
        let finding = Finding(ruleID: "missing_inverse", severity: .warning, message: "'A.b' has no inverse",
                              location: .init(file: "M.xcdatamodel/contents", line: 3, column: 9))
        #expect(XcodeReporter.line(for: finding) == "M.xcdatamodel/contents:3:9: warning: 'A.b' has no inverse (missing_inverse)")
    }

    @Test func emptyRunStillReportsEveryFormatCleanly() throws {
        let run = LintRun(reports: [], loadFailures: [], notes: [])
        let context = Fixture.context()
        #expect(XcodeReporter.report(run, context: context) == "")
        #expect(GitHubActionsReporter.report(run, context: context) == "momlint: Linted 0 models: 0 errors, 0 warnings.\n")
        let json = try JSONSerialization.jsonObject(with: Data(JSONReporter.report(run, context: context).utf8)) as? [String: Any]
        #expect(json?["schemaVersion"] as? Int == 1)
        #expect((json?["findings"] as? [Any])?.isEmpty == true)
    }

    @Test func githubCommandsEscapeLineBreaksPercentsAndSeparators() {
        #expect(GitHubActionsReporter.escapeData("50% done\r\nnext") == "50%25 done%0D%0Anext")
        #expect(GitHubActionsReporter.escapeProperty("a:b,c") == "a%3Ab%2Cc")
    }

    @Test func reporterDestinationsParseNameAndFile() throws {
        let plain = try ReporterDestination(parsing: "sarif")
        #expect(plain.reporter.name == "sarif" && plain.file == nil)
        let toFile = try ReporterDestination(parsing: "junit:reports/a:b.xml")
        #expect(toFile.reporter.name == "junit" && toFile.file == "reports/a:b.xml")
        #expect(throws: ReporterDestinationError.unknownReporter("checkstyle")) {
            try ReporterDestination(parsing: "checkstyle")
        }
        #expect(throws: ReporterDestinationError.missingFile(reporter: "json")) {
            try ReporterDestination(parsing: "json:")
        }
        #expect(ReporterDestinationError.unknownReporter("x").description
            == "unknown reporter 'x'; valid reporters: xcode, json, junit, sarif, github, summary")
    }
}

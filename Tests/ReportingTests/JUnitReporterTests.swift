import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Linting
import Reporting
import Testing

/// The JUnit report parsed as XML: the counts CI tools read must agree with what it holds.
@Suite struct JUnitReporterTests {
    private func document(_ run: LintRun, context: ReportContext = Fixture.context()) throws -> XMLElement {
        let xml = JUnitReporter.report(run, context: context)
        return try #require(try XMLDocument(data: Data(xml.utf8)).rootElement())
    }

    private func integer(_ element: XMLElement, _ name: String) -> Int? {
        element.attribute(forName: name)?.stringValue.flatMap { Int($0) }
    }

    @Test func countsAgreeWithTheCasesTheReportHolds() throws {
        let root = try document(Fixture.run())
        #expect(root.name == "testsuites")
        let suites = root.elements(forName: "testsuite")
        // One suite per model file, plus one for the input that failed to load.
        #expect(suites.count == 2)
        var totalCases = 0, totalFailing = 0, totalErrors = 0
        for suite in suites {
            let cases = suite.elements(forName: "testcase")
            let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }.count
            let errors = cases.filter { !$0.elements(forName: "error").isEmpty }.count
            #expect(integer(suite, "tests") == cases.count)
            #expect(integer(suite, "failures") == failing)
            #expect(integer(suite, "errors") == errors)
            #expect(integer(suite, "skipped") == 0)
            #expect(suite.attribute(forName: "time") != nil)
            totalCases += cases.count; totalFailing += failing; totalErrors += errors
        }
        #expect(integer(root, "tests") == totalCases)
        #expect(integer(root, "failures") == totalFailing)
        #expect(integer(root, "errors") == totalErrors)
        #expect(totalErrors == 1)
    }

    @Test func everyRuleThatRanIsACasePassingOrNot() throws {
        let root = try document(Fixture.run())
        let library = try #require(root.elements(forName: "testsuite").first)
        let cases = library.elements(forName: "testcase")
        #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue } == TestRules.reporting.map { $0.description.id })
        // Both rules with findings fail; none passes silently.
        #expect(cases.filter { $0.elements(forName: "failure").isEmpty }.isEmpty)
    }

    @Test func aCleanRunStillCountsItsChecks() throws {
        let engine = LintEngine(rules: [AttributeLimitTestRule.self], options: ["test_attribute_limit": RuleOptions(["limit": "50"])])
        let run = LintRun(paths: [TestPaths.library], engine: engine)
        let root = try document(run, context: Fixture.context(engine: engine))
        #expect(integer(root, "tests") == 1)
        #expect(integer(root, "failures") == 0)
    }

    @Test func classnameAndNameAreUniqueAndCasesPointAtFiles() throws {
        let root = try document(Fixture.run())
        var seen: Set<String> = []
        for suite in root.elements(forName: "testsuite") {
            for testCase in suite.elements(forName: "testcase") {
                let classname = try #require(testCase.attribute(forName: "classname")?.stringValue)
                let name = try #require(testCase.attribute(forName: "name")?.stringValue)
                #expect(seen.insert(classname + "\u{0}" + name).inserted, "duplicate case \(classname) \(name)")
                #expect(testCase.attribute(forName: "file")?.stringValue?.isEmpty == false)
                #expect((integer(testCase, "line") ?? 0) >= 1)
            }
        }
    }

    @Test func eachFindingIsAFailureTypedByItsRule() throws {
        let root = try document(Fixture.run())
        let failures = root.elements(forName: "testsuite").flatMap { $0.elements(forName: "testcase") }
            .flatMap { $0.elements(forName: "failure") }
        #expect(failures.count == Fixture.run().findings.count)
        let types = failures.compactMap { $0.attribute(forName: "type")?.stringValue }
        #expect(Set(types) == Set(Fixture.run().findings.map(\.ruleID)))
    }

    @Test func markupInMessagesSurvivesAsText() throws {
        let finding = Finding(ruleID: "test_no_action", severity: .warning, message: "a \"quoted\" <tag> & line\nbreak",
                              location: .init(file: TestPaths.library + "/x/contents", line: 2, column: 3),
                              entityName: "A", propertyName: "b")
        let run = Fixture.run()
        let altered = LintRun(reports: [.init(model: run.reports[0].model, findings: [finding])], loadFailures: [], notes: [])
        let root = try document(altered)
        let failure = try #require(root.elements(forName: "testsuite").first?.elements(forName: "testcase")
            .flatMap { $0.elements(forName: "failure") }.first)
        #expect(failure.attribute(forName: "message")?.stringValue == finding.message)
    }
}

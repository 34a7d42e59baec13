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
            #expect(suite.attribute(forName: "skipped") == nil)
            #expect(suite.attribute(forName: "time") != nil)
            totalCases += cases.count; totalFailing += failing; totalErrors += errors
        }
        #expect(integer(root, "tests") == totalCases)
        #expect(integer(root, "failures") == totalFailing)
        #expect(integer(root, "errors") == totalErrors)
        #expect(totalErrors == 1)
        #expect(root.attribute(forName: "skipped") == nil)
    }

    @Test func everyFindingIsACaseOfItsOwnAndCleanRulesPass() throws {
        let run = Fixture.run()
        let root = try document(run)
        let library = try #require(root.elements(forName: "testsuite").first)
        let cases = library.elements(forName: "testcase")
        // Readers show one failure per case: each case holds at most one.
        #expect(cases.allSatisfy { $0.elements(forName: "failure").count <= 1 })
        let failing = cases.filter { !$0.elements(forName: "failure").isEmpty }
        #expect(failing.count == run.reports[0].findings.count)
        // Every rule that ran appears, in its class: failing cases, or one passing case.
        let classes = Set(cases.compactMap { $0.attribute(forName: "classname")?.stringValue })
        let prefix = "Tests/ReportingTests/Fixtures/Library_xcdatamodeld/Library_xcdatamodel/contents."
        #expect(classes == Set(TestRules.reporting.map { prefix + $0.description.id }))
    }

    @Test func severalFindingsOfOneRuleAreSeveralCasesNamedByTheirPlace() throws {
        let run = Fixture.run()
        let model = run.reports[0].model
        func finding(_ entity: String?, _ property: String?, line: Int) -> Finding {
            Finding(ruleID: "test_no_action", severity: .warning, message: "m\(line)",
                    location: .init(file: model.file, line: line, column: 9), entityName: entity, propertyName: property)
        }
        let findings = [finding("Book", "editor", line: 12), finding("Book", "shelf", line: 11),
                        finding("Book", "editor", line: 13), finding("Book", nil, line: 7), finding(nil, nil, line: 2)]
        let altered = LintRun(reports: [.init(model: model, findings: findings)], loadFailures: [], notes: [])
        let root = try document(altered)
        let cases = try #require(root.elements(forName: "testsuite").first).elements(forName: "testcase")
            .filter { $0.attribute(forName: "classname")?.stringValue?.hasSuffix(".test_no_action") == true }
        // Names are the baseline identity (entity.property), never a line; repeats are numbered.
        #expect(cases.compactMap { $0.attribute(forName: "name")?.stringValue }
            == ["Book.editor", "Book.shelf", "Book.editor #2", "Book", "(model)"])
        #expect(cases.compactMap { $0.elements(forName: "failure").first?.attribute(forName: "message")?.stringValue }
            == ["m12", "m11", "m13", "m7", "m2"])
        #expect(integer(try #require(root.elements(forName: "testsuite").first), "failures") == 5)
    }

    @Test func classnameSplitsAtItsLastDotIntoModelAndRule() throws {
        let root = try document(Fixture.run())
        for testCase in root.elements(forName: "testsuite").flatMap({ $0.elements(forName: "testcase") }) {
            let classname = try #require(testCase.attribute(forName: "classname")?.stringValue)
            #expect(classname.split(separator: ".").count == 2, "one dot, before the rule: \(classname)")
            let rule = classname.split(separator: ".").last.map(String.init)
            if let failure = testCase.elements(forName: "failure").first {
                #expect(rule == failure.attribute(forName: "type")?.stringValue)
            } else if !testCase.elements(forName: "error").isEmpty {
                #expect(rule == "load")
            }
        }
    }

    @Test func aCleanRunStillCountsItsChecks() throws {
        let engine = try LintEngine(rules: [AttributeLimitTestRule.self], options: ["test_attribute_limit": RuleOptions(["limit": "50"])])
        let run = LintRun(paths: [TestPaths.library], engine: engine)
        let root = try document(run, context: Fixture.context(engine: engine))
        #expect(integer(root, "tests") == 1)
        #expect(integer(root, "failures") == 0)
    }

    @Test func classnameAndNameAreUnique() throws {
        let root = try document(Fixture.run())
        var seen: Set<String> = []
        for suite in root.elements(forName: "testsuite") {
            for testCase in suite.elements(forName: "testcase") {
                let classname = try #require(testCase.attribute(forName: "classname")?.stringValue)
                let name = try #require(testCase.attribute(forName: "name")?.stringValue)
                #expect(seen.insert(classname + "\u{0}" + name).inserted, "duplicate case \(classname) \(name)")
            }
        }
    }

    /// Jenkins' xUnit plugin validates JUnit files against a strict schema (its `junit-10.xsd`)
    /// and rejects a file holding any attribute or element it does not declare. `JenkinsJUnitSchema`
    /// transcribes that schema's declarations; every element of the report must satisfy them.
    @Test func everyElementAndAttributeIsOneJenkinsStrictSchemaAccepts() throws {
        let run = Fixture.run()
        let root = try document(run)
        try JenkinsJUnitSchema.validate(root)
        let rootless = try #require(try XMLDocument(data: Data(JUnitReporter.report(
            LintRun(reports: [], loadFailures: [], notes: []), context: Fixture.context()).utf8)).rootElement())
        try JenkinsJUnitSchema.validate(rootless)
    }

    /// The same check by a schema validator, where xmllint is installed (CI installs it):
    /// `Schemas/junit-jenkins-strict.xsd` states Jenkins' strict schema as an XSD.
    static let xmllint = ["/usr/bin/xmllint", "/usr/local/bin/xmllint", "/opt/homebrew/bin/xmllint"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: xmllint != nil, "needs xmllint (libxml2-utils)"))
    func validatesAgainstJenkinsStrictSchema() throws {
        let schema = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Schemas/junit-jenkins-strict.xsd").path
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-junit-\(UUID().uuidString).xml")
        defer { try? FileManager.default.removeItem(at: file) }
        try JUnitReporter.report(Fixture.run(), context: Fixture.context()).write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.xmllint))
        process.arguments = ["--noout", "--schema", schema, file.path]
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "xmllint: \(message)")
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

import Conformance
import Foundation
import MomlintTestSupport
import ReferenceStore
import Testing

/// Reporters are pure functions of the results; these pin their exact output.
@Suite struct ReporterTests {
    static let results = [
        ScenarioResult(scenarioID: "deny.a", adapterName: "mine", verdict: .pass, file: "S/deny/a.yaml", seconds: 0.0123),
        ScenarioResult(scenarioID: "deny.b", adapterName: "mine", verdict: .fail(message: "save (error): expected <1600> & \"more\"", line: 12),
                       file: "S/deny/b.yaml", seconds: 1.5),
        ScenarioResult(scenarioID: "cascade.c", adapterName: "mine", verdict: .fail(message: "boom", line: nil),
                       file: "S/cascade/c.yaml", seconds: 0),
        ScenarioResult(scenarioID: "cascade.d", adapterName: "mine", verdict: .pass, file: "S/cascade/d.yaml", seconds: 0),
        ScenarioResult(scenarioID: "ordered.e", adapterName: "mine", verdict: .skip(missingFeatures: [.ordered]),
                       file: "S/ordered/e.yaml", seconds: 0),
    ]
    static let summary = RunSummary(adapterName: "mine", results: results, expectedFailures: ExpectedFailures(
        entries: [.init(pattern: "cascade.*", line: 1)], file: "xfail.txt"))

    @Test func text() {
        #expect(TextReporter.report([Self.summary]) == """
            PASS  deny.a (mine)
            FAIL  deny.b (mine) S/deny/b.yaml:12: save (error): expected <1600> & "more"
            XFAIL cascade.c (mine) S/cascade/c.yaml: boom
            XPASS cascade.d (mine) S/cascade/d.yaml: passed, but xfail.txt lists it as expected to fail; remove it from the list
            SKIP  ordered.e (mine) S/ordered/e.yaml: needs 'ordered', which the adapter does not support
            mine: 5 scenarios: 1 passed, 1 failed, 1 expected to fail, 1 passed unexpectedly, 1 skipped

            """)
    }

    @Test func junit() {
        #expect(JUnitReporter.report([Self.summary], workingDirectory: "/work") == """
            <?xml version="1.0" encoding="UTF-8"?>
            <testsuites name="momlint conformance" tests="5" failures="2" errors="0" time="1.512">
              <testsuite name="conformance.mine" tests="5" failures="2" errors="0" skipped="1" time="1.512">
                <testcase classname="conformance.mine.deny" name="deny.a" time="0.012"/>
                <testcase classname="conformance.mine.deny" name="deny.b" time="1.500">
                  <failure type="fail" message="save (error): expected &lt;1600&gt; &amp; &quot;more&quot;">S/deny/b.yaml:12</failure>
                </testcase>
                <testcase classname="conformance.mine.cascade" name="cascade.c" time="0.000">
                  <system-out>expected failure: boom</system-out>
                </testcase>
                <testcase classname="conformance.mine.cascade" name="cascade.d" time="0.000">
                  <failure type="unexpected-pass" message="passed, but xfail.txt lists it as expected to fail; remove it from the list">S/cascade/d.yaml</failure>
                </testcase>
                <testcase classname="conformance.mine.ordered" name="ordered.e" time="0.000">
                  <skipped message="needs 'ordered', which the adapter does not support"/>
                </testcase>
              </testsuite>
            </testsuites>

            """)
    }

    @Test func junitPathsAreRelativeToTheWorkingDirectory() {
        let result = ScenarioResult(scenarioID: "deny.b", adapterName: "mine", verdict: .fail(message: "x", line: 3),
                                    file: "/work/repo/Fixtures/Scenarios/deny/b.yaml", seconds: 0)
        let summary = RunSummary(adapterName: "mine", results: [result])
        #expect(JUnitReporter.report([summary], workingDirectory: "/work/repo")
            .contains(">Fixtures/Scenarios/deny/b.yaml:3</failure>"))
        #expect(JUnitReporter.report([summary], workingDirectory: "/elsewhere")
            .contains(">/work/repo/Fixtures/Scenarios/deny/b.yaml:3</failure>"))
    }

    @Test func json() throws {
        let text = JSONReporter.report([Self.summary])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        let run = try #require((document["runs"] as? [[String: Any]])?.first)
        #expect(run["adapter"] as? String == "mine")
        #expect(run["successful"] as? Bool == false)
        #expect(run["counts"] as? [String: Int] == ["pass": 1, "fail": 1, "expected-failure": 1, "unexpected-pass": 1, "skip": 1])
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.map { $0["outcome"] as? String } == ["pass", "fail", "expected-failure", "unexpected-pass", "skip"])
        #expect(results[1]["line"] as? Int == 12)
        #expect(results[1]["file"] as? String == "S/deny/b.yaml")
        #expect(results[1]["message"] as? String == "save (error): expected <1600> & \"more\"")
        #expect(results[0]["seconds"] as? Double == 0.012)
        #expect(results[0]["message"] == nil)
    }

    @Test func matrixIsDeterministicAndMarksStanding() throws {
        let scenarios = try Fixtures.allScenarios().filter { ["deny.non-empty-to-many-fails", "nullify.to-one"].contains($0.id) }
        let summary = RunSummary(adapterName: "mine", results: [
            ScenarioResult(scenarioID: "deny.non-empty-to-many-fails", adapterName: "mine",
                           verdict: .fail(message: "x", line: 1), file: "f", seconds: 3),
            ScenarioResult(scenarioID: "nullify.to-one", adapterName: "mine", verdict: .pass, file: "f", seconds: 9),
        ])
        let markdown = ConformanceMatrix(scenarios: scenarios, summaries: [summary], command: "momlint conformance").markdown()
        #expect(markdown.contains("| mine | 1 | 1 | 0 | 0 | 0 |"))
        #expect(markdown.contains("| `deny.non-empty-to-many-fails` | deleting a department that still has employees fails "
            + "with 1600, and after a reset nothing has changed | *inferred* (Q5) | ❌ |"))
        #expect(markdown.contains("| `nullify.to-one` | deleting a person clears the driver of their car, and the car stays | documented | ✅ |"))
        #expect(!markdown.contains("3.0") && !markdown.contains("9.0"), "timings make the report volatile")
        #expect(markdown.range(of: "## deny")!.lowerBound < markdown.range(of: "## nullify")!.lowerBound)
    }
}

/// The matrix cannot know the mutation score (it is a function of its runs alone), so it says
/// where the score is; this checks the pointer holds: `reports/mutation.md` has that line.
@Suite struct MutationScorePointerTests {
    @Test func theMatrixPointsAtTheMutationReportsScoreLineAndThatLineIsThere() throws {
        let matrix = ConformanceMatrix(scenarios: [], summaries: [], command: "momlint conformance").markdown()
        #expect(matrix.contains("is the **Score** line of `reports/mutation.md`, written by `scripts/mutation.py`"))
        let mutation = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("reports/mutation.md"), encoding: .utf8)
        let score = try #require(mutation.firstMatch(of: /(?m)^\*\*Score: (\d+) of (\d+) faults killed\.\*\*$/))
        #expect(score.output.1 == score.output.2, "every catalogued fault must be killed")
    }
}

/// `reports/conformance.md` is generated; this fails when the committed file no longer matches
/// the scenarios or the reference store's results. (CI also runs `momlint conformance
/// --adapter reference --adapter … --check-report reports/conformance.md` for every adapter.)
@Suite struct ConformanceReportTests {
    @Test func theCommittedReportIsCurrentForTheReferenceStore() async throws {
        let committed = try String(contentsOfFile: Fixtures.reportPath, encoding: .utf8)
        let scenarios = try Fixtures.allScenarios()
        let results = await ConformanceRunner().run(scenarios, adapter: ReferenceStoreAdapter())
        let fresh = ConformanceMatrix(scenarios: scenarios, summaries: [RunSummary(adapterName: "reference", results: results)],
                                      command: "").markdown()
        // Compare the reference column of every scenario row; other adapters' columns may be there too.
        let expectedRows = Self.rows(fresh, column: "reference")
        let committedRows = Self.rows(committed, column: "reference")
        #expect(committedRows == expectedRows, """
            reports/conformance.md is stale; regenerate it with \
            'swift run momlint conformance --adapter reference --write-report reports/conformance.md' \
            (adding every other adapter the report shows)
            """)
    }

    /// Scenario id → (behaviour, standing, the cell of `column`), from every scenario table.
    static func rows(_ markdown: String, column: String) -> [String: [String]] {
        var rows: [String: [String]] = [:]
        var columnIndex: Int?
        for line in markdown.split(separator: "\n") where line.hasPrefix("|") {
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
                .map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.first == "Scenario" {
                columnIndex = cells.firstIndex(of: column)
            } else if let id = cells.first, id.hasPrefix("`"), let columnIndex, columnIndex < cells.count {
                rows[id] = [cells[1], cells[2], cells[columnIndex]]
            }
        }
        return rows
    }
}

/// A scenario folder comes from another project: a file named with a newline and `::warning::`,
/// ESC or U+202E must not forge a line in any conformance report.
@Suite struct ConformanceForgedLineTests {
    static let hostileFile = "S/deny/a\n::warning::forged\u{1B}[2J\u{07}\u{202E}.yaml"
    static let summary = RunSummary(adapterName: "mine", results: [
        ScenarioResult(scenarioID: "deny.a", adapterName: "mine", verdict: .fail(message: "boom\n::error::x", line: 3),
                       file: hostileFile, seconds: 0),
    ], expectedFailures: .none)

    @Test func textReporterPrintsEveryResultOnOnePrintableLine() {
        let report = TextReporter.report([Self.summary])
        #expect(!report.split(separator: "\n").contains { $0.hasPrefix("::") })
        #expect(!report.unicodeScalars.contains { ["\u{1B}", "\u{07}", "\u{202E}"].contains($0) })
        #expect(report.hasPrefix("FAIL  deny.a (mine) S/deny/a\\n::warning::forged\\u{1B}[2J\\u{7}\\u{202E}.yaml:3: boom\\n::error::x\n"))
    }

    /// A shim's stderr, quoted after `  | ` in the message, prints one quoted line per line: each
    /// escaped, each starting `  | ` whatever the shim wrote — GitHub Actions reads a command only
    /// at the start of a line after spaces, and a reader sees the quote for what it is.
    @Test func textReporterQuotesAShimsStderrOneEscapedLineEach() {
        let message = "the shim 'x' crashed. Its stderr ended with:\n  | Traceback\n  | ::warning::forged\u{1B}[2J\n  | a\rb\u{202E}"
        let summary = RunSummary(adapterName: "mine", results: [
            ScenarioResult(scenarioID: "deny.a", adapterName: "mine", verdict: .fail(message: message, line: 3),
                           file: "S/deny/a.yaml", seconds: 0),
        ], expectedFailures: .none)
        #expect(TextReporter.report([summary]) == """
            FAIL  deny.a (mine) S/deny/a.yaml:3: the shim 'x' crashed. Its stderr ended with:
              | Traceback
              | ::warning::forged\\u{1B}[2J
              | a\\rb\\u{202E}
            mine: 1 scenario: 0 passed, 1 failed

            """)
        let report = TextReporter.report([summary])
        #expect(!report.split(separator: "\n").contains { $0.drop { $0 == " " }.hasPrefix("::") })
        #expect(!report.unicodeScalars.contains { ["\u{1B}", "\r", "\u{202E}"].contains($0) })
    }

    /// The conformance and lint JUnit reporters escape alike (`XMLText`): a control character
    /// XML cannot hold becomes U+FFFD (it was `?` here), and a line break in an attribute stays
    /// a line break for the reader (it was written raw, which a parser reads as a space).
    @Test(.enabled(if: PythonXMLReader.isAvailable))
    func junitReadsBackWithControlsReplacedAndLineBreaksKept() throws {
        let report = JUnitReporter.report([Self.summary], workingDirectory: "/work")
        #expect(report.contains(#"<failure type="fail" message="boom&#10;::error::x">"#))
        let elements = try PythonXMLReader.elements(of: report)
        let failure = try #require(elements.first { $0.tag == "failure" })
        #expect(failure.attributes["message"] == "boom\n::error::x")
        #expect(failure.text == "S/deny/a\n::warning::forged\u{FFFD}[2J\u{FFFD}\u{202E}.yaml:3")
        let tab = RunSummary(adapterName: "a\tb\r\u{0}", results: [], expectedFailures: .none)
        let suite = try #require(try PythonXMLReader.elements(of: JUnitReporter.report([tab])).first { $0.tag == "testsuite" })
        #expect(suite.attributes["name"] == "conformance.a\tb\r\u{FFFD}")
    }

    @Test func structuredReportersEscapeBidiAndControls() {
        for report in [JUnitReporter.report([Self.summary]), JSONReporter.report([Self.summary])] {
            #expect(!report.unicodeScalars.contains { ["\u{1B}", "\u{07}", "\u{202E}"].contains($0) })
        }
    }
}

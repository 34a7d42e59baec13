import DataModel
import Linting

/// JUnit XML as GitHub test-report actions, GitLab, Jenkins and Bitbucket read it.
///
/// One `testsuite` per model file; in it one `testcase` per rule that ran, passing ones
/// included, so a clean run still counts its checks. `classname` is the model file and `name`
/// the rule id, unique per case (GitLab keeps only the first of duplicates). Each finding is a
/// `failure` of its rule's case, `type` = rule id; `failures` counts failing cases. An input
/// that could not be loaded is a suite of its own holding one case with an `error`.
/// momlint does not time rules, so every `time` is 0.
public enum JUnitReporter: Reporter {
    public static let name = "junit"
    public static let summary = "JUnit XML: a testsuite per model, a testcase per rule (GitLab, Jenkins, GitHub)"

    public static func report(_ run: LintRun, context: ReportContext) -> String {
        var suites: [Suite] = run.reports.map { suite(for: $0, context: context) }
        suites += run.loadFailures.map { failure in
            let path = context.displayPath(failure.path)
            let error = Element("error", [("type", "load_error"), ("message", failure.message)],
                                text: "\(failure.line.map { "\(path):\($0):\(failure.column ?? 1)" } ?? path): error: \(failure.message)")
            return Suite(name: path, cases: [
                Element("testcase", [("classname", path), ("name", "load"), ("file", path),
                                     ("line", String(failure.line ?? 1)), ("time", "0")], children: [error]),
            ], failures: 0, errors: 1)
        }
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"\(XMLText.escaped(context.toolName))\" tests=\"\(tests)\" "
            + "failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"0\" time=\"0\">\n"
        for suite in suites {
            output += "  <testsuite name=\"\(XMLText.escaped(suite.name))\" tests=\"\(suite.cases.count)\" "
                + "failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" skipped=\"0\" time=\"0\">\n"
            for testCase in suite.cases { output += testCase.rendered(indent: "    ") }
            output += "  </testsuite>\n"
        }
        return output + "</testsuites>\n"
    }

    private static func suite(for report: LintRun.ModelReport, context: ReportContext) -> Suite {
        let path = context.displayPath(report.model.file)
        var findingsByRule: [String: [Finding]] = [:]
        for finding in report.findings { findingsByRule[finding.ruleID, default: []].append(finding) }
        // The rules that ran, then any rule a finding names that the context does not list,
        // so no finding is ever dropped from the report.
        var ruleIDs = context.rules.map(\.id)
        ruleIDs += findingsByRule.keys.filter { !ruleIDs.contains($0) }.sorted()
        var failing = 0
        let cases = ruleIDs.map { ruleID in
            let findings = findingsByRule[ruleID] ?? []
            if !findings.isEmpty { failing += 1 }
            let line = findings.first?.location.line ?? report.model.location.line
            return Element("testcase", [("classname", path), ("name", ruleID), ("file", path),
                                        ("line", String(line)), ("time", "0")],
                           children: findings.map { finding in
                               Element("failure", [("type", ruleID), ("message", finding.message)],
                                       text: "\(context.displayPath(finding.location.file)):\(finding.location.line):"
                                           + "\(finding.location.column): \(finding.severity.rawValue): "
                                           + "\(finding.message) (\(ruleID))")
                           })
        }
        return Suite(name: path, cases: cases, failures: failing, errors: 0)
    }

    private struct Suite {
        var name: String
        var cases: [Element]
        var failures: Int
        var errors: Int
    }

    /// Just enough of an XML element for this report: attributes in order, text or children.
    private struct Element {
        var name: String
        var attributes: [(String, String)]
        var text: String?
        var children: [Element]

        init(_ name: String, _ attributes: [(String, String)], text: String? = nil, children: [Element] = []) {
            self.name = name
            self.attributes = attributes
            // Text is one `path:line:column: severity: message` line: made printable, so a path
            // holding a line break cannot start a line of its own where the XML is printed.
            self.text = text.map(PrintableText.escaped)
            self.children = children
        }

        func rendered(indent: String) -> String {
            let attributeText = attributes.map { " \($0.0)=\"\(XMLText.escaped($0.1))\"" }.joined()
            if let text {
                return "\(indent)<\(name)\(attributeText)>\(XMLText.escaped(text, inAttribute: false))</\(name)>\n"
            }
            guard !children.isEmpty else { return "\(indent)<\(name)\(attributeText)/>\n" }
            return "\(indent)<\(name)\(attributeText)>\n"
                + children.map { $0.rendered(indent: indent + "  ") }.joined()
                + "\(indent)</\(name)>\n"
        }
    }
}

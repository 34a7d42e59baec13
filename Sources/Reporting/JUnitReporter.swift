import DataModel
import Linting

/// JUnit XML as GitHub test-report actions, GitLab, Jenkins and Bitbucket read it.
///
/// One `testsuite` per model file. Each finding is a `testcase` of its own holding one
/// `failure` (`type` = rule id): readers show only one failure per case, so several findings
/// in one case hid all but the first. A rule that ran without a finding on the model is one
/// passing case, so a clean run still counts its checks.
///
/// Names carry the finding's baseline identity — model, rule, entity and property, never a
/// line — so a finding keeps its test history while lines move: `classname` is
/// `MODEL.RULE`, which Jenkins (splitting at the last dot) shows as package MODEL and class
/// RULE, MODEL being the model file's path with its dots written `_`; `name` is
/// `Entity.property`, `Entity`, or `(model)`, with ` #2`, ` #3`… when one rule reports the
/// same place again (GitLab keeps only the first of duplicate cases). The location is the
/// failure's text. Only attributes Jenkins' strict JUnit schema accepts are written: no
/// `testcase/@file` or `@line`, no `testsuites/@skipped`. An input that could not be loaded is a
/// suite of its own holding one case with an `error`. momlint does not time rules, so every
/// `time` is 0.
public enum JUnitReporter: Reporter {
    public static let name = "junit"
    public static let summary = "JUnit XML: a testsuite per model, a testcase per finding (GitLab, Jenkins, GitHub)"
    public static let isWholeDocument = true

    public static func report(_ run: LintRun, context: ReportContext) -> String {
        var suites: [Suite] = run.reports.map { suite(for: $0, context: context) }
        suites += run.loadFailures.map { failure in
            let path = context.displayPath(failure.path)
            let error = Element("error", [("type", "load_error"), ("message", failure.message)],
                                text: "\(failure.line.map { "\(path):\($0):\(failure.column ?? 1)" } ?? path): error: \(failure.message)")
            return Suite(name: path, cases: [
                Element("testcase", [("classname", classPrefix(path) + ".load"), ("name", "load"), ("time", "0")],
                        children: [error]),
            ], failures: 0, errors: 1)
        }
        let tests = suites.reduce(0) { $0 + $1.cases.count }
        let failures = suites.reduce(0) { $0 + $1.failures }
        let errors = suites.reduce(0) { $0 + $1.errors }
        var output = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        output += "<testsuites name=\"\(XMLText.escaped(context.toolName))\" tests=\"\(tests)\" "
            + "failures=\"\(failures)\" errors=\"\(errors)\" time=\"0\">\n"
        for suite in suites {
            output += "  <testsuite name=\"\(XMLText.escaped(suite.name))\" tests=\"\(suite.cases.count)\" "
                + "failures=\"\(suite.failures)\" errors=\"\(suite.errors)\" time=\"0\">\n"
            for testCase in suite.cases { output += testCase.rendered(indent: "    ") }
            output += "  </testsuite>\n"
        }
        return output + "</testsuites>\n"
    }

    /// The model part of `classname`: its path with dots written `_`, so the only dot left is
    /// the one before the rule id, where Jenkins splits package from class.
    static func classPrefix(_ path: String) -> String {
        path.replacingOccurrences(of: ".", with: "_")
    }

    /// `Entity.property`, `Entity`, or `(model)`: where a finding is, as the baseline names it.
    static func place(of finding: Finding) -> String {
        switch (finding.entityName, finding.propertyName) {
        case (let entity?, let property?): "\(entity).\(property)"
        case (let entity?, nil): entity
        case (nil, let property?): property
        case (nil, nil): "(model)"
        }
    }

    private static func suite(for report: LintRun.ModelReport, context: ReportContext) -> Suite {
        let path = context.displayPath(report.model.file)
        let prefix = classPrefix(path)
        var findingsByRule: [String: [Finding]] = [:]
        for finding in report.findings { findingsByRule[finding.ruleID, default: []].append(finding) }
        // The rules that ran, then any rule a finding names that the context does not list,
        // so no finding is ever dropped from the report.
        var ruleIDs = context.rules.map(\.id)
        ruleIDs += findingsByRule.keys.filter { !ruleIDs.contains($0) }.sorted()
        var cases: [Element] = []
        var failing = 0
        for ruleID in ruleIDs {
            let classname = "\(prefix).\(ruleID)"
            guard let findings = findingsByRule[ruleID] else {
                cases.append(Element("testcase", [("classname", classname), ("name", "no findings"), ("time", "0")]))
                continue
            }
            var seen: [String: Int] = [:]
            for finding in findings {
                let findingPlace = place(of: finding)
                seen[findingPlace, default: 0] += 1
                let name = seen[findingPlace]! == 1 ? findingPlace : "\(findingPlace) #\(seen[findingPlace]!)"
                let failure = Element("failure", [("type", ruleID), ("message", finding.message)],
                                      text: "\(context.displayPath(finding.location.file)):\(finding.location.line):"
                                          + "\(finding.location.column): \(finding.severity.rawValue): "
                                          + "\(finding.message) (\(ruleID))")
                cases.append(Element("testcase", [("classname", classname), ("name", name), ("time", "0")],
                                     children: [failure]))
                failing += 1
            }
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

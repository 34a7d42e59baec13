import Linting

/// A table of finding counts per rule and severity, most serious first, then the totals.
/// Written as a Markdown table so it reads in a terminal and renders in a pull request or
/// a GitHub job summary (`$GITHUB_STEP_SUMMARY`).
public enum SummaryReporter: Reporter {
    public static let name = "summary"
    public static let summary = "a table of finding counts per rule and severity (Markdown)"
    public static let endsWithTotals = true

    public static func report(_ run: LintRun, context: ReportContext) -> String {
        let counts = Dictionary(run.findings.map { (Row(ruleID: $0.ruleID, severity: $0.severity), 1) }, uniquingKeysWith: +)
        let rows = counts.sorted { lhs, rhs in
            if lhs.key.severity != rhs.key.severity { return lhs.key.severity > rhs.key.severity }
            if lhs.value != rhs.value { return lhs.value > rhs.value }
            return lhs.key.ruleID < rhs.key.ruleID
        }
        var table = [["rule", "severity", "findings"]]
        table += rows.map { [$0.key.ruleID, $0.key.severity.rawValue, String($0.value)] }
        table.append(["total", "", String(run.findings.count)])

        let widths = (0..<3).map { column in table.map { $0[column].count }.max()! }
        func format(_ cells: [String]) -> String {
            let padded = cells.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                return column == 2 ? padding + cell : cell + padding  // counts align right
            }
            return "| " + padded.joined(separator: " | ") + " |\n"
        }
        var output = format(table[0])
        output += "| " + widths.enumerated().map { column, width in
            column == 2 ? String(repeating: "-", count: width - 1) + ":" : String(repeating: "-", count: width)
        }.joined(separator: " | ") + " |\n"
        for row in table.dropFirst() { output += format(row) }
        return output + "\n" + RunSummary.line(for: run) + "\n"
    }

    private struct Row: Hashable {
        var ruleID: String
        var severity: Severity
    }
}

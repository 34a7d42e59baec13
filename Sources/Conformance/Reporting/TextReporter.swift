import DataModel

/// Human-readable results: one line per scenario that needs attention (failures, unexpected
/// passes), a line per other scenario, and a summary per adapter.
///
/// ```
/// FAIL deny.non-empty-to-many (reference) Fixtures/Scenarios/deny/non-empty-to-many.yaml:14: save (error): …
/// ```
public enum TextReporter: ResultReporter {
    public static let name = "text"

    public static func report(_ summaries: [RunSummary]) -> String {
        var lines: [String] = []
        for summary in summaries {
            for result in summary.results {
                let outcome = summary.outcome(of: result)
                var line = "\(label(outcome)) \(result.scenarioID) (\(summary.adapterName))"
                if let message = summary.message(of: result) {
                    line += " \(result.failurePlace): \(message)"
                }
                // One line per result, made printable (`PrintableText`): a scenario path or a shim's
                // stderr holding a newline and `::warning::`, ESC or U+202E cannot start a line of
                // its own or forge what a reader, or GitHub Actions, sees.
                lines.append(PrintableText.escaped(line))
            }
            lines.append(summary.summaryLine)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func label(_ outcome: RunSummary.Outcome) -> String {
        switch outcome {
        case .pass: "PASS "
        case .fail: "FAIL "
        case .expectedFailure: "XFAIL"
        case .unexpectedPass: "XPASS"
        case .skip: "SKIP "
        }
    }
}

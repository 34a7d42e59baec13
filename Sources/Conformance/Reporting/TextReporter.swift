import DataModel

/// Human-readable results: one line per scenario that needs attention (failures, unexpected
/// passes), a line per other scenario, and a summary per adapter. A message that quotes a
/// shim's stderr continues on lines of its own, each starting `  | `:
///
/// ```
/// FAIL  deny.non-empty-to-many (reference) Fixtures/Scenarios/deny/non-empty-to-many.yaml:14: save (error): …
/// FAIL  cascade.chain (python-store) Fixtures/Scenarios/cascade/chain.yaml:11: … Its stderr ended with:
///   | Traceback (most recent call last):
///   | RuntimeError: simulated crash in the store
/// ```
public enum TextReporter: ResultReporter {
    public static let name = "text"

    /// What starts each quoted line of a shim's stderr in a message (`ShimConnection`).
    public static let quotedLinePrefix = "  | "

    public static func report(_ summaries: [RunSummary]) -> String {
        var lines: [String] = []
        for summary in summaries {
            for result in summary.results {
                let outcome = summary.outcome(of: result)
                var line = "\(label(outcome)) \(result.scenarioID) (\(summary.adapterName))"
                var quoted: [Substring] = []
                if let message = summary.message(of: result) {
                    let parts = message.split(separator: "\n" + quotedLinePrefix, omittingEmptySubsequences: false)
                    line += " \(result.failurePlace): \(parts[0])"
                    quoted = Array(parts.dropFirst())
                }
                // Every line made printable (`PrintableText`): a scenario path or a shim's stderr
                // holding a newline and `::warning::`, ESC or U+202E cannot start a line of its own
                // or forge what a reader, or GitHub Actions, sees. A quoted stderr line starts with
                // `  | ` whatever it holds, so it cannot pass for a line of momlint's own.
                lines.append(PrintableText.escaped(line))
                lines += quoted.map { quotedLinePrefix + PrintableText.escaped(String($0)) }
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

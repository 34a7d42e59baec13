import Linting

/// `path:line:column: warning|error: message (rule_id)`, one finding a line: the form Xcode
/// and most editors turn into clickable issues. Paths are printed as the finding names them.
/// Load failures and notes are diagnostics, written to standard error by the command.
public enum XcodeReporter: Reporter {
    public static let name = "xcode"
    public static let summary = "path:line:column: severity: message (rule_id), for Xcode and editors (default)"

    public static func report(_ run: LintRun, context: ReportContext) -> String {
        run.findings.map { line(for: $0) + "\n" }.joined()
    }

    public static func line(for finding: Finding) -> String {
        "\(finding.location): \(finding.severity.rawValue): \(finding.message) (\(finding.ruleID))"
    }
}

import DataModel
import Linting

/// GitHub Actions workflow commands: `::error file=…,line=…,col=…,title=…::message`, which
/// the runner turns into annotations on the pull request. GitHub shows only the first 10
/// error and 10 warning annotations of a step, so inputs that failed to load come first and the
/// report ends with the totals.
/// https://docs.github.com/en/actions/reference/workflow-commands-for-github-actions
public enum GitHubActionsReporter: Reporter {
    public static let name = "github"
    public static let summary = "GitHub Actions annotations (::error/::warning) and a totals line"
    public static let endsWithTotals = true
    /// Annotations GitHub displays per step and kind.
    static let displayedAnnotationsPerKind = 10

    public static func report(_ run: LintRun, context: ReportContext) -> String {
        var output = ""
        // Load failures first: a model that was not linted at all must be among the 10 error
        // annotations GitHub keeps, not pushed out by findings in the models that were.
        for failure in run.loadFailures {
            var properties = [("file", context.displayPath(failure.path))]
            if let line = failure.line {
                properties += [("line", String(line)), ("col", String(failure.column ?? 1))]
            }
            properties.append(("title", "momlint could not load a model"))
            output += command("error", properties: properties, message: failure.message)
        }
        for finding in run.findings {
            output += command(finding.severity.rawValue, properties: [
                ("file", context.displayPath(finding.location.file)),
                ("line", String(finding.location.line)),
                ("col", String(finding.location.column)),
                ("title", "momlint \(finding.ruleID)"),
            ], message: finding.message)
        }
        var totals = "momlint: " + RunSummary.line(for: run)
        let errors = run.count(of: .error) + run.loadFailures.count
        let warnings = run.count(of: .warning)
        if max(errors, warnings) > displayedAnnotationsPerKind {
            totals += " GitHub shows only the first \(displayedAnnotationsPerKind) errors and "
                + "\(displayedAnnotationsPerKind) warnings of a step as annotations; the log above lists them all."
        }
        return output + totals + "\n"
    }

    /// Every value is made printable first (`PrintableText`: ESC, BEL, U+202E… become `\u{…}`),
    /// then escaped as the runner expects, so a file name cannot forge a command or what a reader sees.
    private static func command(_ name: String, properties: [(String, String)], message: String) -> String {
        let list = properties.map { "\($0.0)=\(escapeProperty(PrintableText.escaped($0.1)))" }.joined(separator: ",")
        return "::\(name) \(list)::\(escapeData(PrintableText.escaped(message)))\n"
    }

    /// The runner's escaping for a command's message (toolkit `escapeData`). Works on scalars,
    /// because Swift treats "\r\n" as one character that matches neither "\r" nor "\n".
    static func escapeData(_ text: String) -> String {
        escape(text, [("%", "%25"), ("\r", "%0D"), ("\n", "%0A")])
    }

    /// The runner's escaping for a property value (toolkit `escapeProperty`).
    static func escapeProperty(_ text: String) -> String {
        escape(text, [("%", "%25"), ("\r", "%0D"), ("\n", "%0A"), (":", "%3A"), (",", "%2C")])
    }

    private static func escape(_ text: String, _ replacements: [(Unicode.Scalar, String)]) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            if let replacement = replacements.first(where: { $0.0 == scalar }) {
                output += replacement.1
            } else {
                output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

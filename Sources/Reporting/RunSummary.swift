import Linting

/// The one-line totals every run ends with, e.g. `Linted 2 models: 1 error, 3 warnings.`
public enum RunSummary {
    /// `baselined` counts findings a baseline hid, mentioned so a clean run still says they exist.
    public static func line(for run: LintRun, baselined: Int = 0) -> String {
        let models = run.reports.count
        var line = "Linted \(counted(models, "model")): "
            + "\(counted(run.count(of: .error), "error")), \(counted(run.count(of: .warning), "warning"))"
        if baselined > 0 {
            line += " (\(counted(baselined, "finding")) in the baseline not shown)"
        }
        if !run.loadFailures.isEmpty {
            line += "; \(counted(run.loadFailures.count, "input")) could not be loaded"
        }
        return line + "."
    }

    /// `1 error`, `2 errors`.
    static func counted(_ count: Int, _ noun: String) -> String {
        "\(count) \(noun)\(count == 1 ? "" : "s")"
    }
}

import Linting

/// A report format: a pure function from a lint run to text. No I/O, no clock, no
/// environment: everything volatile comes in through the `ReportContext`.
public protocol Reporter: Sendable {
    /// The name `--reporter` takes, e.g. `sarif`.
    static var name: String { get }
    /// One line for `--help` and the error that lists the valid names.
    static var summary: String { get }
    /// True when the report ends with the run's totals, so the command need not repeat them.
    static var endsWithTotals: Bool { get }
    /// True when the report is one document (JSON, SARIF, XML) that a parser reads whole, so
    /// it cannot share standard output with another report.
    static var isWholeDocument: Bool { get }
    static func report(_ run: LintRun, context: ReportContext) -> String
}

extension Reporter {
    public static var endsWithTotals: Bool { false }
    public static var isWholeDocument: Bool { false }
}

/// Every reporter momlint has, in the order `--help` lists them.
public enum ReporterCatalogue {
    public static let all: [any Reporter.Type] = [
        XcodeReporter.self,
        JSONReporter.self,
        JUnitReporter.self,
        SARIFReporter.self,
        GitHubActionsReporter.self,
        SummaryReporter.self,
    ]

    public static let defaultReporter: any Reporter.Type = XcodeReporter.self

    public static func reporter(named name: String) -> (any Reporter.Type)? {
        all.first { $0.name == name }
    }

    public static var names: [String] { all.map { $0.name } }
}

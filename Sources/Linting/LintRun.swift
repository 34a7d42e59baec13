import DataModel

/// One `momlint lint` over a set of paths: what was loaded, what failed, what was found.
public struct LintRun: Sendable {
    /// One linted model and its findings.
    public struct ModelReport: Sendable {
        public var model: Model
        public var findings: [Finding]

        public init(model: Model, findings: [Finding]) {
            self.model = model
            self.findings = findings
        }
    }

    public var reports: [ModelReport]
    public var loadFailures: [LoadError]
    public var notes: [LoadNote]

    public init(reports: [ModelReport], loadFailures: [LoadError], notes: [LoadNote]) {
        self.reports = reports
        self.loadFailures = loadFailures
        self.notes = notes
    }

    /// Loads `paths` with `loader` and lints every model that loaded.
    public init(paths: [String], loader: ModelLoader = ModelLoader(), engine: LintEngine = LintEngine()) {
        let loaded = loader.load(paths: paths)
        self.init(reports: loaded.models.map { ModelReport(model: $0, findings: engine.lint($0)) },
                  loadFailures: loaded.failures, notes: loaded.notes)
    }

    public var findings: [Finding] { reports.flatMap(\.findings) }

    public func count(of severity: Severity) -> Int {
        reports.reduce(0) { $0 + $1.findings.count { $0.severity == severity } }
    }
}

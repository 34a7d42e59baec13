import DataModel

extension LintRun {
    /// The same run keeping only the findings `isIncluded` accepts: how `--quiet` and a
    /// baseline narrow what reporters see without touching the models or load failures.
    public func keepingFindings(where isIncluded: (ModelReport, Finding) -> Bool) -> LintRun {
        mappingFindings { isIncluded($0, $1) ? $1 : nil }
    }

    /// The same run with each finding replaced by what `transform` returns, or dropped when it
    /// returns nil. Findings are visited in the order `findings` lists them.
    public func mappingFindings(_ transform: (ModelReport, Finding) -> Finding?) -> LintRun {
        LintRun(reports: reports.map { report in
                    ModelReport(model: report.model, findings: report.findings.compactMap { transform(report, $0) })
                },
                loadFailures: loadFailures, notes: notes)
    }
}

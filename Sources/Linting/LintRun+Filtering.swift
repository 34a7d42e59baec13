import DataModel

extension LintRun {
    /// The same run keeping only the findings `isIncluded` accepts: how `--quiet` and a
    /// baseline narrow what reporters see without touching the models or load failures.
    public func keepingFindings(where isIncluded: (ModelReport, Finding) -> Bool) -> LintRun {
        LintRun(reports: reports.map { report in
                    ModelReport(model: report.model, findings: report.findings.filter { isIncluded(report, $0) })
                },
                loadFailures: loadFailures, notes: notes)
    }
}

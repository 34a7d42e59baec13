extension LintRun {
    /// The run without the findings `baseline` accounts for, and how many it hid.
    /// `folder` is the folder holding the baseline file.
    public func applying(_ baseline: Baseline, folder: String) -> (run: LintRun, hidden: Int) {
        var isNew = baseline.isNew(findings, folder: folder).makeIterator()
        // `keepingFindings` visits findings in the order `findings` lists them.
        let filtered = keepingFindings { _, _ in isNew.next() ?? true }
        return (filtered, findings.count - filtered.findings.count)
    }
}

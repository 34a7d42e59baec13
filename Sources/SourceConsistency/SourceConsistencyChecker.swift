import DataModel
import Linting

/// Checks hand-written `NSManagedObject` subclasses in Swift sources against models: the
/// library entry point behind `momlint lint --sources DIR`.
public struct SourceConsistencyChecker: Sendable {
    /// Folders (searched recursively) or `.swift` files.
    public var sourceDirectories: [String]
    public var rules: [any SourceRule.Type]

    public init(sourceDirectories: [String], rules: [any SourceRule.Type] = SourceRuleCatalogue.all) {
        self.sourceDirectories = sourceDirectories
        self.rules = rules
    }

    /// What checking the sources against a set of models found.
    public struct Report: Sendable {
        /// Findings per model, parallel to the models given, each list in report order. A
        /// finding that several models give (an unsigned property, say) is kept once, with
        /// the first model that gives it.
        public var findingsByModel: [[Finding]]
        /// Paths and files that could not be used; any of them means exit code 2.
        public var problems: [SourceProblem]
        public var scannedFileCount: Int

        public var findings: [Finding] { findingsByModel.flatMap(\.self).sorted(by: Finding.reportOrder) }
    }

    /// Reads the sources once and checks them against each current model version; versions
    /// loaded only because every version was asked for are skipped, since the classes
    /// describe the current one.
    public func findings(for models: [Model]) -> Report {
        check(SourceScan(paths: sourceDirectories), against: models)
    }

    /// Checks already scanned sources, e.g. held in memory.
    public func check(_ sources: SourceScan, against models: [Model]) -> Report {
        var seen: Set<FindingIdentity> = []
        var findingsByModel: [[Finding]] = []
        for model in models {
            guard model.version.isCurrent else {
                findingsByModel.append([])
                continue
            }
            let pairing = ModelCodePairing(model: model, sources: sources)
            var findings: [Finding] = []
            for rule in rules {
                let description = rule.description
                for violation in rule.init().violations(in: pairing) {
                    let finding = Finding(violation, ruleID: description.id, severity: violation.severity ?? description.defaultSeverity)
                    if seen.insert(FindingIdentity(finding)).inserted { findings.append(finding) }
                }
            }
            findingsByModel.append(findings.sorted(by: Finding.reportOrder))
        }
        return Report(findingsByModel: findingsByModel, problems: sources.problems,
                      scannedFileCount: sources.fileCount)
    }

    /// Two findings are the same when rule, place and words are.
    private struct FindingIdentity: Hashable {
        var ruleID: String
        var location: SourceLocation
        var message: String

        init(_ finding: Finding) {
            ruleID = finding.ruleID
            location = finding.location
            message = finding.message
        }
    }
}

extension LintRun {
    /// Checks `sourceDirectories` against the models of this run and adds what was found:
    /// findings to the report of the model they were found against, unreadable sources to
    /// `loadFailures` (so `momlint lint` exits 2). Does nothing when no directory is given.
    public mutating func checkSources(in sourceDirectories: [String]) {
        guard !sourceDirectories.isEmpty else { return }
        let report = SourceConsistencyChecker(sourceDirectories: sourceDirectories)
            .findings(for: reports.map(\.model))
        for (index, findings) in report.findingsByModel.enumerated() where !findings.isEmpty {
            reports[index].findings = (reports[index].findings + findings).sorted(by: Finding.reportOrder)
        }
        loadFailures += report.problems.map(\.loadError)
    }
}

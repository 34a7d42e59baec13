import DataModel

/// Runs rules over one model at a time and returns their findings in report order.
public struct LintEngine: Sendable {
    public var rules: [any Rule.Type]

    public init(rules: [any Rule.Type] = RuleCatalogue.all) {
        self.rules = rules
    }

    public func lint(_ model: Model) -> [Finding] {
        var findings: [Finding] = []
        for rule in rules {
            let description = rule.description
            for violation in rule.init().violations(in: model) {
                findings.append(Finding(violation, ruleID: description.id, severity: description.defaultSeverity))
            }
        }
        return findings.sorted(by: Finding.reportOrder)
    }
}

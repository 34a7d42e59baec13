import DataModel

/// Runs rules over one model at a time and returns their findings in report order.
///
/// Configuration reaches the engine as data: which rules run, severity overrides and rule
/// options by rule id. The model's own `momlint:disable` entries are honoured here, once for
/// every rule, so no rule has to know about suppressions.
public struct LintEngine: Sendable {
    public var rules: [any Rule.Type]
    /// Severities that replace a rule's default, by rule id.
    public var severityOverrides: [String: Severity]
    /// Options for rules that take them (`ConfigurableRule`), by rule id.
    public var options: [String: RuleOptions]

    public init(rules: [any Rule.Type] = RuleCatalogue.all, severityOverrides: [String: Severity] = [:],
                options: [String: RuleOptions] = [:]) {
        self.rules = rules
        self.severityOverrides = severityOverrides
        self.options = options
    }

    public func lint(_ model: Model) -> [Finding] {
        let suppressions = Suppressions(model: model)
        var findings: [Finding] = []
        let linted = LintedModel(model)
        for rule in rules {
            let description = rule.description
            let severity = self.severity(of: rule)
            // Options were checked by `optionErrors()` when the configuration was read; a
            // rule whose options still fail runs with its defaults rather than not at all.
            let instance = (try? makeRule(rule)) ?? rule.init()
            for violation in instance.violations(in: linted) {
                let finding = Finding(violation, ruleID: description.id, severity: severity)
                if !suppressions.silences(finding) { findings.append(finding) }
            }
        }
        return findings.sorted(by: Finding.reportOrder)
    }

    /// The severity the rule's findings get: the configured override or the rule's default.
    public func severity(of rule: any Rule.Type) -> Severity {
        severityOverrides[rule.description.id] ?? rule.description.defaultSeverity
    }

    /// The rule with its configured options; `init()` when it takes none or none are set.
    public func makeRule(_ rule: any Rule.Type) throws(RuleOptionError) -> any Rule {
        if let configurable = rule as? any ConfigurableRule.Type, let options = options[rule.description.id] {
            return try configurable.init(options: options)
        }
        return rule.init()
    }

    /// Every configured option a rule rejects, by rule id, so a configuration can report them
    /// before anything is linted.
    public func optionErrors() -> [(ruleID: String, error: RuleOptionError)] {
        rules.compactMap { rule -> (ruleID: String, error: RuleOptionError)? in
            do throws(RuleOptionError) {
                _ = try makeRule(rule)
                return nil
            } catch {
                return (rule.description.id, error)
            }
        }
    }
}

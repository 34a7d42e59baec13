import DataModel
import Foundation

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
        let linted = LintedModel(model)
        // Options were checked by `optionErrors()` when the configuration was read; a rule
        // whose options still fail runs with its defaults rather than not at all.
        let instances: [any Rule] = rules.map { rule in (try? makeRule(rule)) ?? rule.init() }
        let violations = Self.violations(of: instances, in: linted)
        var findings: [Finding] = []
        for (rule, ruleViolations) in zip(rules, violations) {
            let description = rule.description
            let override = severityOverrides[description.id]
            for violation in ruleViolations {
                // A configured severity governs every finding of the rule; otherwise the finding's
                // own severity, then the rule's default.
                let severity = override ?? violation.severity ?? description.defaultSeverity
                let finding = Finding(violation, ruleID: description.id, severity: severity)
                if !suppressions.silences(finding) { findings.append(finding) }
            }
        }
        return findings.sorted(by: Finding.reportOrder)
    }

    /// Models with at least this many entities are checked by several rules at once. Below it,
    /// starting threads costs more than the rules take.
    public static let concurrentEntityCount = 200

    /// Each rule's violations, in the order of `instances`. Rules are pure and `LintedModel`
    /// builds its shared facts under locks, so on a large model the rules run on every core;
    /// the result does not depend on which finishes first.
    private static func violations(of instances: [any Rule], in linted: LintedModel) -> [[Violation]] {
        let cores = ProcessInfo.processInfo.activeProcessorCount
        guard cores > 1, instances.count > 1, linted.model.entities.count >= concurrentEntityCount else {
            return instances.map { $0.violations(in: linted) }
        }
        let results = ResultSlots<[Violation]>(count: instances.count)
        DispatchQueue.concurrentPerform(iterations: instances.count) { index in
            results[index] = instances[index].violations(in: linted)
        }
        return results.values
    }

    /// The severity the rule's findings get: the configured override or the rule's default
    /// (a finding that carries its own severity keeps it unless an override is configured).
    public func severity(of rule: any Rule.Type) -> Severity {
        severityOverrides[rule.description.id] ?? rule.description.defaultSeverity
    }

    /// The rule with its configured options; `init()` when it takes none or none are set.
    public func makeRule(_ rule: any Rule.Type) throws(RuleOptionError) -> any Rule {
        // Options first: a dynamic cast searches every protocol conformance in the binary when
        // it fails, which at start-up costs more than linting a small model.
        if let options = options[rule.description.id], let configurable = rule as? any ConfigurableRule.Type {
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

/// One slot per concurrent task: each task writes only its own index, and the slots are read
/// after `concurrentPerform` has returned, so no two threads ever touch the same memory. The
/// slots are raw memory rather than an array so that no task writes to a shared array value.
private final class ResultSlots<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    subscript(index: Int) -> Value? {
        get { slots[index] }
        set { slots[index] = newValue }
    }

    var values: [Value] { slots.map { $0! } }
}

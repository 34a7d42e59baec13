import DataModel
import Foundation

/// Runs rules over one model at a time and returns their findings in report order.
///
/// Configuration reaches the engine as data: which rules run, severity overrides and rule
/// options by rule id. The model's own `momlint:disable` entries are honoured here, once for
/// every rule, so no rule has to know about suppressions.
public struct LintEngine: Sendable {
    public let rules: [any Rule.Type]
    /// Severities that replace a rule's default, by rule id.
    public let severityOverrides: [String: Severity]
    /// Options for rules that take them (`ConfigurableRule`), by rule id.
    public let options: [String: RuleOptions]
    /// Each of `rules` built once with its options, in the same order.
    private let instances: [any Rule]
    /// The positions in `rules` of the migration rules, which `lintMigrations` runs.
    let migrationRuleIndices: [Int]
    /// The positions in `rules` of the rules that run on a model read from SwiftData `@Model`
    /// classes: those whose `SwiftDataApplicability` says they apply. A rule page that says a rule
    /// does not apply to SwiftData is thereby a promise, not a prediction.
    let swiftDataRuleIndices: [Int]

    /// An engine whose rules run with their default options.
    public init(rules: [any Rule.Type] = RuleCatalogue.all, severityOverrides: [String: Severity] = [:]) {
        self.init(rules: rules, severityOverrides: severityOverrides, options: [:], instances: rules.map { $0.init() })
    }

    /// An engine with rule options. Each rule is built here, once; the first option a rule
    /// rejects (in `rules` order) is thrown, so a typo fails loudly instead of running defaults.
    public init(rules: [any Rule.Type] = RuleCatalogue.all, severityOverrides: [String: Severity] = [:],
                options: [String: RuleOptions]) throws(RejectedRuleOption) {
        var instances: [any Rule] = []
        instances.reserveCapacity(rules.count)
        for rule in rules {
            // Options first: a dynamic cast searches every protocol conformance in the binary when
            // it fails, which at start-up costs more than linting a small model.
            guard let ruleOptions = options[rule.description.id], let configurable = rule as? any ConfigurableRule.Type else {
                instances.append(rule.init())
                continue
            }
            do throws(RuleOptionError) {
                instances.append(try configurable.init(options: ruleOptions))
            } catch {
                throw RejectedRuleOption(ruleID: rule.description.id, error: error)
            }
        }
        self.init(rules: rules, severityOverrides: severityOverrides, options: options, instances: instances)
    }

    private init(rules: [any Rule.Type], severityOverrides: [String: Severity], options: [String: RuleOptions],
                 instances: [any Rule]) {
        self.rules = rules
        self.severityOverrides = severityOverrides
        self.options = options
        self.instances = instances
        // Not `is any MigrationRule`: a dynamic cast searches every protocol conformance in the
        // binary, which at start-up costs more than linting a small model.
        migrationRuleIndices = rules.indices.filter { instances[$0].asMigrationRule != nil }
        swiftDataRuleIndices = rules.indices.filter { rules[$0].description.swiftData.applies }
    }

    /// The rule at `index` of `rules`, built with its options.
    func instance(at index: Int) -> any Rule { instances[index] }

    public func lint(_ model: Model) -> [Finding] {
        let suppressions = Suppressions(model: model)
        let linted = LintedModel(model)
        let running = model.origin == .swiftData ? swiftDataRuleIndices : Array(rules.indices)
        let violations = Self.violations(of: running.map { instances[$0] }, in: linted)
        var findings: [Finding] = []
        for (index, ruleViolations) in zip(running, violations) {
            let description = rules[index].description
            for violation in ruleViolations {
                let finding = Finding(violation, ruleID: description.id, severity: severity(of: description, for: violation))
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
        // The core count last: Foundation reads it from the cgroup files through `URL`, which on
        // a small model's run costs more than its rules (docs/benchmarks.md, "Start-up").
        guard instances.count > 1, linted.model.entities.count >= concurrentEntityCount,
              ProcessInfo.processInfo.activeProcessorCount > 1 else {
            return instances.map { $0.violations(in: linted) }
        }
        let results = ConcurrentSlots<[Violation]>(count: instances.count)
        ConcurrentWork.perform(iterations: instances.count) { index in
            results[index] = instances[index].violations(in: linted)
        }
        // Every task has filled its slot when concurrentPerform returns.
        return results.takeAll()!
    }

    /// The severity the rule's findings get: the configured override or the rule's default
    /// (a finding that carries its own severity keeps it unless an override is configured).
    public func severity(of rule: any Rule.Type) -> Severity {
        severityOverrides[rule.description.id] ?? rule.description.defaultSeverity
    }

    /// The severity of one finding, for every kind of rule: the severity configured for the
    /// rule, which governs all of its findings; else the finding's own; else the rule's default.
    func severity(of rule: RuleDescription, for violation: Violation) -> Severity {
        severityOverrides[rule.id] ?? violation.severity ?? rule.defaultSeverity
    }
}

/// A rule option the rule rejects, found when the engine is built.
public struct RejectedRuleOption: Error, Hashable, Sendable, CustomStringConvertible {
    public var ruleID: String
    public var error: RuleOptionError

    public init(ruleID: String, error: RuleOptionError) {
        self.ruleID = ruleID
        self.error = error
    }

    /// e.g. "rule 'too_many_properties': option 'limit' expects a whole number, not 'many'".
    public var description: String { "rule '\(ruleID)': \(error)" }
}

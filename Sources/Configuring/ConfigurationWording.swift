import Linting

/// Every sentence momlint says about a configuration, in one place, so the wording stays
/// consistent and a reviewer can read it all at once. Lowercase, quoting what is wrong,
/// saying what to do.
public enum ConfigurationWording {
    static func invalidYAML(_ problem: String) -> String {
        "invalid YAML: \(problem); fix the file or pass another with --config"
    }

    /// Over one of SafeYAML's bounds (size, nesting, alias expansion).
    static func refusedYAML(_ why: String) -> String {
        "refused: \(why)"
    }

    static func notAMapping(found: String) -> String {
        "the configuration must be a mapping of keys to values (e.g. 'disabled_rules: [missing_inverse]'), not \(found)"
    }

    static func notFound() -> String {
        "no such configuration file"
    }

    static func unreadable(_ why: String) -> String {
        "cannot read the configuration file: \(why)"
    }

    static func unknownKey(_ key: String, suggestion: String?) -> String {
        "unknown key '\(key)' is neither a configuration key nor a rule id; ignoring it"
            + (suggestion.map { " (did you mean '\($0)'?)" } ?? "")
            + "; keys: \(LintConfiguration.Key.allCases.map(\.rawValue).joined(separator: ", "))"
    }

    static func unknownRule(_ id: String, in key: String, suggestion: String?) -> String {
        "unknown rule id '\(id)' in '\(key)'; ignoring it"
            + (suggestion.map { " (did you mean '\($0)'?)" } ?? "; 'momlint rules' lists the rule ids")
    }

    static func unknownSuppressedRule(_ id: String, suggestion: String?) -> String {
        "'\(Suppressions.userInfoKey)' names unknown rule id '\(id)', which silences nothing"
            + (suggestion.map { " (did you mean '\($0)'?)" } ?? "; 'momlint rules' lists the rule ids")
    }

    static func expectedList(_ key: String) -> String {
        "'\(key)' expects a list (e.g. '\(key): [a, b]'); ignoring it"
    }

    static func expectedMapping(_ key: String, keys: [String]) -> String {
        "'\(key)' expects a mapping of \(keys.map { "'\($0)'" }.joined(separator: ", ")); ignoring it"
    }

    static func unknownKey(inMapping key: String, _ name: String, keys: [String]) -> String {
        "unknown key '\(name)' in '\(key)'; ignoring it; keys: \(keys.joined(separator: ", "))"
    }

    static func expectedText(in key: String) -> String {
        "'\(key)' expects text entries; ignoring an entry that is a list or a mapping"
    }

    static func expectedMigrationPath(found: String) -> String {
        "'migration.path' expects 'direct' (Core Data migrates each older version straight to the current one) or "
            + "'stepwise' (the app migrates each version to the next), not '\(found)'; ignoring it"
    }

    static func expectedBoolean(_ key: String, found: String) -> String {
        "'\(key)' expects true or false, not '\(found)'; ignoring it"
    }

    static func invalidSeverity(rule: String, found: String) -> String {
        "'\(rule)' severity must be 'warning' or 'error', not '\(found)'; keeping its default"
    }

    static func invalidRuleEntry(rule: String) -> String {
        "'\(rule)' expects a severity ('\(rule): error') or a mapping of 'severity' and options; ignoring it"
    }

    static func ruleTakesNoOptions(rule: String, options: [String]) -> String {
        "rule '\(rule)' takes no options; ignoring \(options.map { "'\($0)'" }.joined(separator: ", "))"
    }

    static func unknownOption(rule: String, option: String, valid: [String]) -> String {
        "rule '\(rule)' has no option '\(option)'; ignoring it (options: \(valid.joined(separator: ", ")))"
    }

    static func optionNotScalar(rule: String, option: String) -> String {
        "option '\(option)' of '\(rule)' expects a single value, not a list or a mapping; ignoring it"
    }

    static func invalidOption(rule: String, problem: String) -> String {
        "rule '\(rule)': \(problem)"
    }

    static func noRulesLeft() -> String {
        "'only_rules' and 'disabled_rules' leave no rule to run; nothing would be checked"
    }
}

extension LintConfiguration {
    /// A warning for each `momlint:disable` userInfo entry (or SwiftData comment) in the run's
    /// models that names no rule of `catalogue` or `otherRuleIDs`, with the nearest id when one
    /// is close: a typo there silences nothing, so it must not pass unnoticed.
    public static func unknownSuppressedRules(in run: LintRun, catalogue: [any Rule.Type] = RuleCatalogue.all,
                                              otherRuleIDs: [String] = []) -> [ConfigurationDiagnostic] {
        let known = catalogue.map { $0.description.id } + otherRuleIDs
        let knownSet = Set(known)
        return run.reports.flatMap { report in
            Suppressions.unknownRuleIDs(in: report.model, knownRuleIDs: knownSet).map { unknown in
                ConfigurationDiagnostic(.warning, file: unknown.location.file, line: unknown.location.line,
                                        column: unknown.location.column,
                                        message: ConfigurationWording.unknownSuppressedRule(
                                            unknown.ruleID, suggestion: NearestName.closest(to: unknown.ruleID, among: known)))
            }
        }
    }
}

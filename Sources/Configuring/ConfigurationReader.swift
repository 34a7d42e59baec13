import Foundation
import Linting
import ModelDiff
import Yams

/// Walks a composed YAML document into a `LintConfiguration`, collecting a warning, with
/// its line and column, for everything it cannot use.
struct ConfigurationReader {
    let file: String
    let folder: String
    let catalogue: [any Rule.Type]
    /// Ids of rules the engine does not run but findings may carry (the source rules of
    /// `--sources`): known, so configurable by severity and in the rule lists, with no options.
    let otherRuleIDs: [String]
    private(set) var configuration: LintConfiguration
    private(set) var warnings: [ConfigurationDiagnostic] = []

    init(file: String, folder: String, catalogue: [any Rule.Type], otherRuleIDs: [String]) {
        self.file = file
        self.folder = folder
        self.catalogue = catalogue
        self.otherRuleIDs = otherRuleIDs
        self.configuration = LintConfiguration(files: [file])
    }

    private var ruleIDs: [String] { catalogue.map { $0.description.id } + otherRuleIDs }

    mutating func read(_ root: Node) throws(ConfigurationDiagnostic) {
        guard let mapping = root.mapping else {
            throw ConfigurationDiagnostic(.error, file: file, line: root.mark?.line, column: root.mark?.column,
                                          message: ConfigurationWording.notAMapping(found: Self.kind(of: root)))
        }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            if let known = LintConfiguration.Key(rawValue: key) {
                read(known, value)
            } else if let rule = catalogue.first(where: { $0.description.id == key }) {
                readRuleEntry(id: key, options: (rule as? any ConfigurableRule.Type)?.options, value)
            } else if otherRuleIDs.contains(key) {
                readRuleEntry(id: key, options: nil, value)
            } else {
                warn(at: keyNode, ConfigurationWording.unknownKey(
                    key, suggestion: NearestName.closest(to: key, among: LintConfiguration.Key.allCases.map(\.rawValue) + ruleIDs)))
            }
        }
    }

    private mutating func read(_ key: LintConfiguration.Key, _ value: Node) {
        switch key {
        case .included:
            configuration.included = strings(value, key: key.rawValue)?.map { FilePaths.absolute($0, base: folder) }
        case .excluded:
            configuration.excluded = (strings(value, key: key.rawValue) ?? []).map { FilePaths.absolute($0, base: folder) }
        case .sources:
            configuration.sources = (strings(value, key: key.rawValue) ?? []).map { FilePaths.absolute($0, base: folder) }
        case .swiftData:
            configuration.swiftData = (strings(value, key: key.rawValue) ?? []).map { FilePaths.absolute($0, base: folder) }
        case .swiftDataCloudKit:
            configuration.swiftDataCloudKit = boolean(value, key: key.rawValue) ?? configuration.swiftDataCloudKit
        case .disabledRules:
            configuration.disabledRules = Set(knownRules(value, key: key.rawValue) ?? [])
        case .onlyRules:
            configuration.onlyRules = knownRules(value, key: key.rawValue)
        case .migration:
            readMigration(value)
        case .strict:
            configuration.strict = boolean(value, key: key.rawValue) ?? configuration.strict
        }
    }

    /// `migration: {all_versions: bool, since: REV, path: direct|stepwise, version_order: {bundle: [names]}}`.
    private mutating func readMigration(_ value: Node) {
        guard let mapping = value.mapping else {
            warn(at: value, ConfigurationWording.expectedMapping("migration", keys: Self.migrationKeys))
            return
        }
        for (keyNode, entry) in mapping {
            switch keyNode.string {
            case "all_versions"?:
                configuration.migration.allVersions = boolean(entry, key: "migration.all_versions")
                    ?? configuration.migration.allVersions
            case "since"?:
                if let text = entry.scalar?.string, !text.isEmpty {
                    configuration.migration.since = text
                } else {
                    warn(at: entry, ConfigurationWording.expectedText(in: "migration.since"))
                }
            case "path"?:
                if let text = entry.scalar?.string, let path = MigrationPath(rawValue: text) {
                    configuration.migration.path = path
                } else {
                    warn(at: entry, ConfigurationWording.expectedMigrationPath(found: entry.string ?? Self.kind(of: entry)))
                }
            case "version_order"?:
                guard let bundles = entry.mapping else {
                    warn(at: entry, ConfigurationWording.expectedMapping("migration.version_order", keys: ["<bundle>"]))
                    continue
                }
                for (bundleNode, names) in bundles {
                    guard let bundle = bundleNode.string,
                          let list = strings(names, key: "migration.version_order.\(bundleNode.string ?? "")") else { continue }
                    // A path is taken relative to the configuration's folder; a bare bundle name matches any bundle of that name.
                    let key = bundle.contains("/") ? FilePaths.absolute(bundle, base: folder) : bundle
                    configuration.migration.versionOrder[key] = list
                }
            default:
                warn(at: keyNode, ConfigurationWording.unknownKey(inMapping: "migration", keyNode.string ?? "",
                                                                  keys: Self.migrationKeys))
            }
        }
    }

    static let migrationKeys = ["all_versions", "since", "path", "version_order"]

    /// `rule: error`, or `rule: {severity: error, option: value}`. `validOptions` is nil for a
    /// rule that takes none.
    private mutating func readRuleEntry(id: String, options validOptions: [RuleOptionDescription]?, _ value: Node) {
        var setting = LintConfiguration.RuleSetting()
        if let scalar = value.scalar {
            setting.severity = severity(scalar.string, rule: id, at: value)
        } else if let mapping = value.mapping {
            var options: [(name: String, node: Node)] = []
            for (keyNode, optionValue) in mapping {
                let name = keyNode.string ?? ""
                if name == "severity" {
                    setting.severity = optionValue.string.flatMap { severity($0, rule: id, at: optionValue) }
                } else {
                    options.append((name, keyNode))
                    if let text = optionValue.scalar?.string {
                        setting.options.values[name] = text
                    } else {
                        warn(at: optionValue, ConfigurationWording.optionNotScalar(rule: id, option: name))
                    }
                }
            }
            validateOptions(options, of: id, valid: validOptions, setting: &setting)
        } else {
            warn(at: value, ConfigurationWording.invalidRuleEntry(rule: id))
            return
        }
        configuration.ruleSettings[id] = setting
    }

    private mutating func validateOptions(_ options: [(name: String, node: Node)], of id: String,
                                          valid validOptions: [RuleOptionDescription]?,
                                          setting: inout LintConfiguration.RuleSetting) {
        guard !options.isEmpty else { return }
        guard let validOptions else {
            warn(at: options[0].node, ConfigurationWording.ruleTakesNoOptions(rule: id, options: options.map(\.name)))
            setting.options = RuleOptions()
            return
        }
        let valid = validOptions.map(\.name)
        for option in options where !valid.contains(option.name) {
            warn(at: option.node, ConfigurationWording.unknownOption(rule: id, option: option.name, valid: valid))
            setting.options.values[option.name] = nil
        }
    }

    private mutating func severity(_ text: String, rule: String, at node: Node) -> Severity? {
        guard let severity = Severity(rawValue: text.lowercased()) else {
            warn(at: node, ConfigurationWording.invalidSeverity(rule: rule, found: text))
            return nil
        }
        return severity
    }

    /// `true`/`yes`/`on` or `false`/`no`/`off`, in any case; nil, with a warning, for anything else.
    private mutating func boolean(_ value: Node, key: String) -> Bool? {
        switch value.scalar.map({ $0.string.lowercased() }) {
        case "true"?, "yes"?, "on"?: return true
        case "false"?, "no"?, "off"?: return false
        default:
            warn(at: value, ConfigurationWording.expectedBoolean(key, found: value.string ?? Self.kind(of: value)))
            return nil
        }
    }

    /// A list of rule ids, or a single id as a list of one (as every list key takes a single
    /// value), warning about (and dropping) unknown ones.
    private mutating func knownRules(_ value: Node, key: String) -> [String]? {
        let items: [Node]
        if value.scalar != nil {
            items = [value]
        } else if let sequence = value.sequence {
            items = Array(sequence)
        } else {
            warn(at: value, ConfigurationWording.expectedList(key))
            return nil
        }
        var known: [String] = []
        for item in items {
            guard let id = item.scalar?.string else {
                warn(at: item, ConfigurationWording.expectedText(in: key))
                continue
            }
            if ruleIDs.contains(id) {
                known.append(id)
            } else {
                warn(at: item, ConfigurationWording.unknownRule(id, in: key, suggestion: NearestName.closest(to: id, among: ruleIDs)))
            }
        }
        return known
    }

    /// A list of text, or a single text as a list of one.
    private mutating func strings(_ value: Node, key: String) -> [String]? {
        if let scalar = value.scalar { return [scalar.string] }
        guard let sequence = value.sequence else {
            warn(at: value, ConfigurationWording.expectedList(key))
            return nil
        }
        return sequence.compactMap { item in
            guard let text = item.scalar?.string else {
                warn(at: item, ConfigurationWording.expectedText(in: key))
                return nil
            }
            return text
        }
    }

    private mutating func warn(at node: Node, _ message: String) {
        warnings.append(ConfigurationDiagnostic(.warning, file: file, line: node.mark?.line,
                                                column: node.mark?.column, message: message))
    }

    private static func kind(of node: Node) -> String {
        if node.sequence != nil { return "a list" }
        if let scalar = node.scalar { return "'\(scalar.string)'" }
        return "an alias"
    }
}

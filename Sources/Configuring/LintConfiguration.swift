import DataModel
import Foundation
import Linting
import ModelDiff

/// What a `.momlint.yml` says, with every path made absolute against the file's folder.
/// An empty configuration changes nothing: every rule runs with its default severity.
public struct LintConfiguration: Sendable {
    /// The keys a configuration may hold besides rule ids.
    public enum Key: String, CaseIterable, Sendable {
        case included
        case excluded
        case disabledRules = "disabled_rules"
        case onlyRules = "only_rules"
        case strict
        case sources
        case swiftData = "swiftdata"
        case swiftDataCloudKit = "swiftdata_cloudkit"
        /// `migration: {all_versions: true, since: origin/main, path: stepwise, version_order: {Model.xcdatamodeld: [A, B]}}`
        case migration
    }

    /// The `migration` key: how the migration rules compare a bundle's versions.
    public struct MigrationSettings: Hashable, Sendable {
        /// Compare every older version with the current one, like `--all-versions`.
        public var allVersions: Bool?
        /// The base revision for `shipped_version_modified`, like `--since`.
        public var since: String?
        /// Version names in order, by bundle folder name (or path), for names that do not sort.
        public var versionOrder: [String: [String]] = [:]
        /// How the app migrates its stores, like `--migration-path` (default: direct).
        public var path: MigrationPath?

        public init() {}
    }

    /// A rule's own entry: `missing_inverse: error` or `too_many: {severity: error, limit: 150}`.
    public struct RuleSetting: Hashable, Sendable {
        public var severity: Severity?
        public var options = RuleOptions()

        public init() {}
    }

    /// Paths linted when the command line names none; nil to lint the working directory.
    public var included: [String]?
    /// Paths (or `*` patterns) whose models are skipped, even when named on the command line.
    public var excluded: [String] = []
    public var disabledRules: Set<String> = []
    /// When set, only these rules run (less any in `disabledRules`).
    public var onlyRules: [String]?
    public var ruleSettings: [String: RuleSetting] = [:]
    /// `strict: true` makes warnings fail the exit code, like `--strict`.
    public var strict: Bool?
    /// Swift source folders or files checked against the models, like `--sources`.
    public var sources: [String] = []
    /// Folders or files of SwiftData `@Model` classes to lint, like `--swiftdata`.
    public var swiftData: [String] = []
    /// `swiftdata_cloudkit: true`: the SwiftData models sync with CloudKit even when no
    /// `ModelConfiguration(cloudKitDatabase:)` in the sources says so (e.g. `.automatic`
    /// with a CloudKit entitlement).
    public var swiftDataCloudKit: Bool?
    /// How the migration rules compare versions (`migration`).
    public var migration = MigrationSettings()
    /// The files this configuration was read from, in merge order.
    public var files: [String]

    /// An empty configuration, read from `files`.
    public init(files: [String] = []) {
        self.files = files
    }

    /// `other` laid over this one, as `--config base.yml --config ci.yml` does: what `other`
    /// sets wins (`included`, `only_rules`, `strict`, each rule's severity and options);
    /// `excluded` and `disabled_rules` add up.
    public func merged(with other: LintConfiguration) -> LintConfiguration {
        var result = self
        result.included = other.included ?? included
        result.excluded = excluded + other.excluded.filter { !excluded.contains($0) }
        result.disabledRules.formUnion(other.disabledRules)
        result.onlyRules = other.onlyRules ?? onlyRules
        for (id, setting) in other.ruleSettings {
            var merged = ruleSettings[id] ?? RuleSetting()
            merged.severity = setting.severity ?? merged.severity
            merged.options.values.merge(setting.options.values) { _, new in new }
            result.ruleSettings[id] = merged
        }
        result.strict = other.strict ?? strict
        result.sources = sources + other.sources.filter { !sources.contains($0) }
        result.swiftData = swiftData + other.swiftData.filter { !swiftData.contains($0) }
        result.swiftDataCloudKit = other.swiftDataCloudKit ?? swiftDataCloudKit
        result.migration.allVersions = other.migration.allVersions ?? migration.allVersions
        result.migration.since = other.migration.since ?? migration.since
        result.migration.versionOrder.merge(other.migration.versionOrder) { _, new in new }
        result.migration.path = other.migration.path ?? migration.path
        result.files += other.files
        return result
    }

    // MARK: Applying it

    /// The rules to run, in catalogue order: `only_rules` (or all), less `disabled_rules`.
    public func rules(from catalogue: [any Rule.Type] = RuleCatalogue.all) -> [any Rule.Type] {
        catalogue.filter { admits(ruleID: $0.description.id) }
    }

    /// True when the rule may run: listed in `only_rules` (when set) and not disabled.
    public func admits(ruleID: String) -> Bool {
        (onlyRules?.contains(ruleID) ?? true) && !disabledRules.contains(ruleID)
    }

    /// The severity the rule's findings get: the configured one, else its default.
    public func severity(of rule: RuleDescription) -> Severity {
        ruleSettings[rule.id]?.severity ?? rule.defaultSeverity
    }

    /// The run with the configuration applied to every finding, whichever checker made it:
    /// rules it does not admit dropped, severities overridden, `momlint:disable` honoured.
    /// The engine does the same for model rules; this reaches findings added after it (the
    /// source rules of `--sources`), and changes nothing the engine already decided.
    public func applied(to run: LintRun) -> LintRun {
        run.mappingFindings { report, finding in
            guard admits(ruleID: finding.ruleID), !Suppressions(model: report.model).silences(finding) else { return nil }
            var adjusted = finding
            adjusted.severity = ruleSettings[finding.ruleID]?.severity ?? finding.severity
            return adjusted
        }
    }

    /// An engine running this configuration's rules with its severities and options. Throws
    /// the first option a rule rejects, so a typo fails loudly instead of running defaults.
    public func engine(catalogue: [any Rule.Type] = RuleCatalogue.all) throws(ConfigurationDiagnostic) -> LintEngine {
        do throws(RejectedRuleOption) {
            return try LintEngine(rules: rules(from: catalogue),
                                  severityOverrides: ruleSettings.compactMapValues(\.severity),
                                  options: ruleSettings.mapValues(\.options).filter { !$0.value.isEmpty })
        } catch {
            throw ConfigurationDiagnostic(.error, file: files.last ?? ConfigurationFile.defaultName,
                                          message: ConfigurationWording.invalidOption(rule: error.ruleID,
                                                                                      problem: error.error.description))
        }
    }

    /// The paths to lint: those on the command line, else `included`, else the working directory.
    public func paths(arguments: [String]) -> [String] {
        if !arguments.isEmpty { return arguments }
        return included ?? ["."]
    }

    /// The Swift sources to check: those on the command line, then the configuration's
    /// `sources`, each once. Configured paths inside the working directory are shown relative
    /// to it, so findings read as they would with `--sources`.
    public func sourcePaths(arguments: [String],
                            workingDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        Self.adding(sources, to: arguments, workingDirectory: workingDirectory)
    }

    /// The SwiftData model folders to lint: those on the command line, then the configuration's
    /// `swiftdata`, each once, shown as `sourcePaths(arguments:)` shows its paths.
    public func swiftDataPaths(arguments: [String],
                               workingDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        Self.adding(swiftData, to: arguments, workingDirectory: workingDirectory)
    }

    private static func adding(_ configured: [String], to arguments: [String], workingDirectory: String) -> [String] {
        var result = arguments
        for path in configured {
            let shown = FilePaths.isInside(path, FilePaths.absolute(workingDirectory))
                ? FilePaths.relative(path, to: workingDirectory, base: workingDirectory) : path
            if !result.contains(shown) && !result.contains(path) { result.append(shown) }
        }
        return result
    }

    /// True when `path` (a model file, or an input) is or lies inside an excluded path, or
    /// matches an excluded pattern.
    /// Paths are compared as written and with symbolic links resolved, so a linked spelling of
    /// an excluded folder is excluded too.
    public func isExcluded(_ path: String) -> Bool {
        guard !excluded.isEmpty else { return false }
        let spellings = Set([FilePaths.absolute(path), FilePaths.resolved(path)])
        return excluded.contains { pattern in
            if pattern.contains(where: { "*?[".contains($0) }) {
                // `*` matches across `/` here, so `Legacy/*` skips everything below Legacy.
                return spellings.contains { spelling in
                    Self.ancestorsAndSelf(of: spelling).contains { fnmatch(pattern, $0, 0) == 0 }
                }
            }
            let resolvedPattern = FilePaths.resolved(pattern)
            return spellings.contains { FilePaths.isInside($0, pattern) || FilePaths.isInside($0, resolvedPattern) }
        }
    }

    /// The run without the models and load failures under excluded paths.
    public func excluding(from run: LintRun) -> LintRun {
        guard !excluded.isEmpty else { return run }
        return LintRun(reports: run.reports.filter { !isExcluded($0.model.file) },
                       loadFailures: run.loadFailures.filter { !isExcluded($0.path) },
                       notes: run.notes.filter { !isExcluded($0.path) })
    }

    private static func ancestorsAndSelf(of absolutePath: String) -> [String] {
        var paths: [String] = []
        var current = absolutePath
        while current != "/" && !current.isEmpty {
            paths.append(current)
            current = (current as NSString).deletingLastPathComponent
        }
        return paths
    }
}

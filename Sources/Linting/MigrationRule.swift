import DataModel
import ModelDiff
import VersionHashes

/// Two versions of one bundle that the migration rules compare: an older version and the
/// current one, with the schema diff between them computed once for every rule.
public struct MigrationPair: Sendable {
    public let older: Model
    public let current: Model
    /// older → current, from the one diff engine (`ModelDiff`); empty when the pair does not
    /// compare a migration (`comparesMigration`), so no rule pays for a diff it never reads.
    public let diff: SchemaDiff
    /// False when the pair is here only so that `shipped_version_modified` can look at the
    /// older version (it is not the previous one and every older version was not asked for).
    public let comparesMigration: Bool
    /// The older version as the base revision holds it (git, or the lock file); nil when there
    /// is no base or the base does not hold this version (it has not shipped).
    /// Set after the diff (`LintRun.checkMigrations`), since reading the base may mean waiting for git.
    public internal(set) var olderAtBase: Model?
    /// How findings name the base: `HEAD`, a revision, or the lock file's name.
    public internal(set) var baseName: String?
    /// The entity version hashes the base records for the older version, by entity name, when
    /// the base says them itself (a lock file written by `momlint versions --lock`); else they
    /// are computed from `olderAtBase`.
    public internal(set) var baseEntityHashes: [String: VersionHash]?

    /// The version hashes of `olderAtBase`, computed when asked (only
    /// `shipped_version_modified` asks).
    public var baseHashes: ModelVersionHashes? { olderAtBase.map(VersionHasher.hashes(of:)) }
    /// True when the "older" version is ordered after the current one (`BundleVersions.afterCurrent`):
    /// a store it wrote meets the current version only when the app is downgraded, so what fails
    /// there is not what fails on an update, and its findings are warnings.
    public let olderIsOrderedAfterCurrent: Bool

    /// `hasMappingModel` is asked only when the diff's verdict or findings depend on it
    /// (`SchemaDiff.dependsOnMappingModel`): finding out may mean walking a source tree.
    public init(older: Model, current: Model, hasMappingModel: @autoclosure () -> Bool = false,
                comparesMigration: Bool = true, olderAtBase: Model? = nil, baseName: String? = nil,
                baseEntityHashes: [String: VersionHash]? = nil, olderIsOrderedAfterCurrent: Bool = false) {
        self.olderIsOrderedAfterCurrent = olderIsOrderedAfterCurrent
        self.older = older
        self.current = current
        if comparesMigration {
            var diff = SchemaDiff(from: older, to: current)
            if diff.dependsOnMappingModel { diff.hasMappingModel = hasMappingModel() }
            self.diff = diff
        } else {
            self.diff = SchemaDiff(notComparing: older, to: current)
        }
        self.comparesMigration = comparesMigration
        self.olderAtBase = olderAtBase
        self.baseName = baseName
        self.baseEntityHashes = baseEntityHashes
    }

    /// The older version's name as findings quote it.
    public var olderName: String { older.version.name.isEmpty ? older.file : older.version.name }
    public var currentName: String { current.version.name.isEmpty ? current.file : current.version.name }

    /// Where a finding about `change` belongs: its element in the current version, else its
    /// entity there, else the current version's `<model>` element.
    public func location(of change: SchemaChange) -> SourceLocation {
        change.location(orEntityIn: current) ?? current.location
    }
}

/// A rule over two versions of a model. It is also a `Rule` (so the catalogue, configuration,
/// documentation and `momlint rules` treat it like any other), whose single-model check finds
/// nothing.
public protocol MigrationRule: Rule {
    func violations(in pair: MigrationPair) -> [Violation]
}

extension MigrationRule {
    public func violations(in model: LintedModel) -> [Violation] { [] }
    public var asMigrationRule: (any MigrationRule)? { self }
}

extension Violation {
    /// A violation about one schema change, located in the current version.
    init(_ message: String, about change: SchemaChange, in pair: MigrationPair, suggestion: String? = nil) {
        self.init(message: message, location: pair.location(of: change), entityName: change.entityName,
                  propertyName: change.propertyName, suggestion: suggestion)
    }
}

extension LintEngine {
    /// True when the engine runs a migration rule.
    public var checksMigrations: Bool { !migrationRuleIndices.isEmpty }

    /// The findings of the engine's migration rules over each pair, in report order. Severity
    /// overrides and options apply as for any rule; `momlint:disable` entries are read from the
    /// version each finding is located in.
    public func lintMigrations(_ pairs: [MigrationPair]) -> [Finding] {
        let migrationRules = migrationRuleIndices.compactMap { index -> (any Rule.Type, any MigrationRule)? in
            guard let rule = instance(at: index).asMigrationRule else { return nil }
            return (rules[index], rule)
        }
        guard !migrationRules.isEmpty else { return [] }
        var findings: [Finding] = []
        for pair in pairs {
            let suppressions = [pair.current.file: Suppressions(model: pair.current),
                                pair.older.file: Suppressions(model: pair.older)]
            for (rule, instance) in migrationRules {
                let id = rule.description.id
                var severity = self.severity(of: rule)
                // A migration from a version ordered after the current one happens only on a
                // downgrade (an app update never goes there): a warning, unless configured. Edits
                // to that version (shipped_version_modified) are judged as for any version.
                let downgrade = pair.olderIsOrderedAfterCurrent && id != ShippedVersionModifiedRule.description.id
                if downgrade, severityOverrides[id] == nil { severity = min(severity, .warning) }
                for var violation in instance.violations(in: pair) {
                    if downgrade {
                        violation.message += "; '\(pair.olderName)' is ordered after the current version "
                            + "'\(pair.currentName)', so its stores meet it only if the app is downgraded"
                    }
                    let finding = Finding(violation, ruleID: id, severity: severity)
                    if suppressions[finding.location.file]?.silences(finding) != true { findings.append(finding) }
                }
            }
        }
        return findings.sorted(by: Finding.reportOrder)
    }
}

import DataModel
import ModelDiff
import VersionHashes

/// Two versions of one bundle that the migration rules compare: an older version and the one
/// its stores migrate to — the current one (`MigrationPath.direct`), or the next one
/// (`.stepwise`) — with the schema diff between them computed once for every rule.
public struct MigrationPair: Sendable {
    public let older: Model
    /// The version the older one's stores migrate to: the current version, or on the stepwise
    /// path the next one. Findings are located in it.
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

    /// The older version's hashes when the caller computed them for the diff (nil otherwise),
    /// so `shipped_version_modified` does not hash the version again.
    public let olderHashes: ModelVersionHashes?

    /// The version hashes of `olderAtBase`, computed when asked (only
    /// `shipped_version_modified` asks).
    public var baseHashes: ModelVersionHashes? { olderAtBase.map(VersionHasher.hashes(of:)) }
    /// True when the "older" version is ordered after the current one (`BundleVersions.afterCurrent`):
    /// a store it wrote meets the current version only when the app is downgraded, so what fails
    /// there is not what fails on an update, and its findings are warnings.
    public let olderIsOrderedAfterCurrent: Bool

    /// `hasMappingModel` is asked only when the diff's verdict or findings depend on it
    /// (`SchemaDiff.dependsOnMappingModel`): finding out may mean walking a source tree.
    /// `olderHashes` and `currentHashes`, when the caller has them, spare the diff hashing a
    /// version again (a bundle's current version is in every direct migration).
    public init(older: Model, current: Model, hasMappingModel: @autoclosure () -> Bool = false,
                comparesMigration: Bool = true, olderHashes: ModelVersionHashes? = nil,
                currentHashes: ModelVersionHashes? = nil, olderAtBase: Model? = nil, baseName: String? = nil,
                baseEntityHashes: [String: VersionHash]? = nil, olderIsOrderedAfterCurrent: Bool = false) {
        self.olderIsOrderedAfterCurrent = olderIsOrderedAfterCurrent
        self.older = older
        self.current = current
        if comparesMigration {
            var diff = SchemaDiff(from: older, to: current, olderHashes: olderHashes, newerHashes: currentHashes)
            if diff.dependsOnMappingModel { diff.hasMappingModel = hasMappingModel() }
            self.diff = diff
        } else {
            self.diff = SchemaDiff(notComparing: older, to: current)
        }
        self.comparesMigration = comparesMigration
        self.olderHashes = olderHashes
        self.olderAtBase = olderAtBase
        self.baseName = baseName
        self.baseEntityHashes = baseEntityHashes
    }

    /// The older version's name as findings quote it.
    public var olderName: String { older.version.name.isEmpty ? older.file : older.version.name }
    /// The older version as messages name it, quotes included: `'Model 2'`. While the engine
    /// words one finding for several older versions it is `olderPlaceholder`, replaced by
    /// `quoted(olderVersions:)` ("48 older versions, 'V1' … 'V54',"), so a rule words its
    /// message once, for one version or many.
    public var olderQuoted: String {
        get { olderQuotedOverride ?? "'\(olderName)'" }
        set { olderQuotedOverride = newValue }
    }
    private var olderQuotedOverride: String?

    /// Stands for the older versions in a message while the engine groups findings.
    static let olderPlaceholder = "<momlint: older versions>"

    /// Several older versions as messages name them: one in quotes; two or three listed; more
    /// counted, the first and last named ("48 older versions, 'V1' … 'V54',"), the comma closing
    /// the apposition. Reports list every version (`Finding.olderVersions`).
    public static func quoted(olderVersions names: [String]) -> String {
        let quoted = names.map { "'\(PrintableText.escaped($0))'" }
        switch quoted.count {
        case 0: return ""
        case 1: return quoted[0]
        case 2, 3: return "\(quoted.count) older versions, \(quoted.dropLast().joined(separator: ", ")) and \(quoted.last!),"
        default: return "\(quoted.count) older versions, \(quoted[0]) … \(quoted.last!),"
        }
    }
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
    ///
    /// One finding per cause: what a rule finds at one element for several older versions (a
    /// required attribute that 48 older versions' stores have no value for) is one finding there,
    /// naming the versions (`Finding.olderVersions`, and in the message `MigrationPair.olderQuoted`:
    /// "48 older versions, 'V1' … 'V54',"); a rule never reports one element twice, so
    /// different causes at one element are joined in one message.
    public func lintMigrations(_ pairs: [MigrationPair]) -> [Finding] {
        let migrationRules = migrationRuleIndices.compactMap { index -> (any Rule.Type, any MigrationRule)? in
            guard let rule = instance(at: index).asMigrationRule else { return nil }
            return (rules[index], rule)
        }
        guard !migrationRules.isEmpty else { return [] }
        var findings: [Finding] = []
        // Read once per pair, not once per rule: a model's suppressions take a walk over it.
        let suppressionsByPair = pairs.map { pair in
            [pair.current.file: Suppressions(model: pair.current), pair.older.file: Suppressions(model: pair.older)]
        }
        for (rule, instance) in migrationRules {
            let description = rule.description, id = description.id
            // Edits to one shipped version are about that version, not about migrating from several.
            let merges = id != ShippedVersionModifiedRule.description.id
            var groups: [FindingGroup] = []
            var groupIndex: [FindingGroup.Key: Int] = [:]
            for (pairIndex, original) in pairs.enumerated() {
                var pair = original
                if merges { pair.olderQuoted = MigrationPair.olderPlaceholder }
                let suppressions = suppressionsByPair[pairIndex]
                // A migration from a version ordered after the current one happens only on a
                // downgrade (an app update never goes there): a warning, unless configured. Edits
                // to that version (shipped_version_modified) are judged as for any version.
                let downgrade = pair.olderIsOrderedAfterCurrent && merges
                for var violation in instance.violations(in: pair) {
                    var severity = self.severity(of: description, for: violation)
                    if downgrade {
                        if severityOverrides[id] == nil { severity = min(severity, .warning) }
                        violation.message += "; '\(pair.olderName)' is ordered after the current version "
                            + "'\(pair.currentName)', so its stores meet it only if the app is downgraded"
                    }
                    let finding = Finding(violation, ruleID: id, severity: severity)
                    guard suppressions[finding.location.file]?.silences(finding) != true else { continue }
                    guard merges else {
                        findings.append(finding)
                        continue
                    }
                    let key = FindingGroup.Key(location: finding.location, entity: finding.entityName,
                                               property: finding.propertyName)
                    if let index = groupIndex[key] {
                        groups[index].add(finding, from: pair.olderName)
                    } else {
                        groupIndex[key] = groups.count
                        groups.append(FindingGroup(finding, from: pair.olderName))
                    }
                }
            }
            findings += groups.map(\.finding)
        }
        return findings.sorted(by: Finding.reportOrder)
    }
}

/// The findings of one migration rule at one element, over the older versions compared: each
/// distinct message (worded with `MigrationPair.olderPlaceholder`) with the versions it holds for.
private struct FindingGroup {
    struct Key: Hashable {
        var location: SourceLocation
        var entity: String?
        var property: String?
    }

    var first: Finding
    /// Each distinct message, in the order found, with its older versions in order.
    var causes: [(message: String, versions: [String])] = []
    var severity: Severity

    init(_ finding: Finding, from olderVersion: String) {
        first = finding
        severity = finding.severity
        add(finding, from: olderVersion)
    }

    mutating func add(_ finding: Finding, from olderVersion: String) {
        severity = max(severity, finding.severity)
        if let index = causes.firstIndex(where: { $0.message == finding.message }) {
            if !causes[index].versions.contains(olderVersion) { causes[index].versions.append(olderVersion) }
        } else {
            causes.append((finding.message, [olderVersion]))
        }
    }

    var finding: Finding {
        var result = first
        result.severity = severity
        result.message = Self.joined(causes.map { cause in
            cause.message.replacingOccurrences(of: MigrationPair.olderPlaceholder,
                                               with: MigrationPair.quoted(olderVersions: cause.versions))
        })
        result.suggestion = first.suggestion?.replacingOccurrences(
            of: MigrationPair.olderPlaceholder, with: MigrationPair.quoted(olderVersions: causes[0].versions))
        var versions: [String] = []
        for cause in causes { for version in cause.versions where !versions.contains(version) { versions.append(version) } }
        result.olderVersions = versions
        return result
    }

    /// Several messages about one element as one: the clauses (split at "; ") they all begin
    /// and end with once, what differs between them in between, in order.
    static func joined(_ messages: [String]) -> String {
        guard messages.count > 1 else { return messages.first ?? "" }
        let clauses = messages.map { $0.components(separatedBy: "; ") }
        let shortest = clauses.map(\.count).min() ?? 0
        var leading = 0
        while leading < shortest - 1, clauses.allSatisfy({ $0[leading] == clauses[0][leading] }) { leading += 1 }
        var trailing = 0
        while trailing < shortest - 1 - leading,
              clauses.allSatisfy({ $0[$0.count - 1 - trailing] == clauses[0][clauses[0].count - 1 - trailing] }) {
            trailing += 1
        }
        let middles = clauses.flatMap { $0[leading..<($0.count - trailing)] }
        return (clauses[0][..<leading] + middles + clauses[0][(clauses[0].count - trailing)...]).joined(separator: "; ")
    }
}

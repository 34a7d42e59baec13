import DataModel
import ModelDiff
import VersionHashes

/// The `VersionedSchema`s and `SchemaMigrationPlan`s of one SwiftData folder, each version
/// resolved to the Core Data model SwiftData builds from it: what the SwiftData migration rules
/// (`SchemaVersionsRule`) read. `SwiftDataVersionsReader` (`Sources/SwiftDataModel`) builds it
/// from Swift sources; every location is a Swift `file:line:column`.
public struct SwiftDataVersions: Sendable {
    /// A name as the sources write it (`SchemaV2.self` in `schemas`, `fromVersion: SchemaV1.self`),
    /// and where.
    public struct Reference: Hashable, Sendable {
        public var name: String
        public var location: SourceLocation

        public init(name: String, location: SourceLocation) {
            self.name = name
            self.location = location
        }
    }

    /// A `@Model` class a version lists or reaches that is declared outside every
    /// `VersionedSchema`: the live class the app edits.
    public struct LiveClass: Hashable, Sendable {
        public var name: String
        /// The class's declaration.
        public var declaration: SourceLocation
        /// Where the version's `models` lists it; nil when the version only reaches it through a
        /// relationship (`reachedThrough`).
        public var listedAt: SourceLocation?
        /// The relationship that reaches it, as `Class.property`, when it is not listed.
        public var reachedThrough: String?

        public init(name: String, declaration: SourceLocation, listedAt: SourceLocation?, reachedThrough: String?) {
            self.name = name
            self.declaration = declaration
            self.listedAt = listedAt
            self.reachedThrough = reachedThrough
        }
    }

    /// One `VersionedSchema`.
    public struct Version: Sendable {
        public var name: String
        /// The type's name in its declaration (or first extension).
        public var location: SourceLocation
        /// `versionIdentifier`'s numbers (`Schema.Version(2, 0, 0)` → [2, 0, 0]); nil when the
        /// sources do not say them as literals.
        public var identifier: [Int]?
        public var identifierLocation: SourceLocation?
        /// The model SwiftData builds from the version's classes (`origin: .swiftData`).
        public var model: Model
        /// Its Core Data version hashes and digest (`VersionHasher`).
        public var hashes: ModelVersionHashes
        /// Classes of the version declared outside every `VersionedSchema`.
        public var liveClasses: [LiveClass]
        /// False when `models` names a class the sources do not declare: the model lacks it, so
        /// the version is not compared with others (its digest is not the app's).
        public var isComplete: Bool

        public init(name: String, location: SourceLocation, identifier: [Int]?, identifierLocation: SourceLocation?,
                    model: Model, hashes: ModelVersionHashes, liveClasses: [LiveClass], isComplete: Bool = true) {
            self.isComplete = isComplete
            self.name = name
            self.location = location
            self.identifier = identifier
            self.identifierLocation = identifierLocation
            self.model = model
            self.hashes = hashes
            self.liveClasses = liveClasses
        }

        /// `1.0.0` for a message, or nil.
        public var identifierText: String? { identifier.map { $0.map(String.init).joined(separator: ".") } }

        /// `identifier` as SwiftData compares it: `Schema.Version(1, 0)` and `(1, 0, 0)` are one
        /// version, so trailing zeros are dropped.
        public var normalizedIdentifier: [Int]? {
            guard var numbers = identifier else { return nil }
            while numbers.count > 1, numbers.last == 0 { numbers.removeLast() }
            return numbers
        }
    }

    /// One `MigrationStage` of a plan.
    public struct Stage: Sendable {
        public enum Kind: String, Sendable {
            /// `MigrationStage.lightweight(fromVersion:toVersion:)`
            case lightweight
            /// `MigrationStage.custom(fromVersion:toVersion:willMigrate:didMigrate:)`
            case custom
        }

        public var kind: Kind
        public var from: Reference?
        public var to: Reference?
        /// The `.lightweight(`/`.custom(` call.
        public var location: SourceLocation
        /// A `willMigrate` closure is given (not `nil`).
        public var hasWillMigrate: Bool
        public var hasDidMigrate: Bool

        public init(kind: Kind, from: Reference?, to: Reference?, location: SourceLocation,
                    hasWillMigrate: Bool = false, hasDidMigrate: Bool = false) {
            self.kind = kind
            self.from = from
            self.to = to
            self.location = location
            self.hasWillMigrate = hasWillMigrate
            self.hasDidMigrate = hasDidMigrate
        }

        /// "'SchemaV1' → 'SchemaV2'" for messages.
        public var label: String { "'\(from?.name ?? "?")' → '\(to?.name ?? "?")'" }
    }

    /// One `SchemaMigrationPlan`.
    public struct Plan: Sendable {
        public var name: String
        public var location: SourceLocation
        /// `schemas`, in the order written; nil when the sources do not list them as `X.self`.
        public var schemas: [Reference]?
        /// `stages`, resolved through static properties; nil when they cannot be read.
        public var stages: [Stage]?

        public init(name: String, location: SourceLocation, schemas: [Reference]?, stages: [Stage]?) {
            self.name = name
            self.location = location
            self.schemas = schemas
            self.stages = stages
        }
    }

    /// A `ModelContainer(for: Schema(versionedSchema: X.self), migrationPlan: P.self)` (or
    /// `for: X.self`, or `Schema(X.models)`) in the sources.
    public struct Container: Sendable {
        public var schema: Reference?
        public var plan: Reference?
        public var location: SourceLocation

        public init(schema: Reference?, plan: Reference?, location: SourceLocation) {
            self.schema = schema
            self.plan = plan
            self.location = location
        }
    }

    /// The versions as a base revision (git `HEAD`, `--since REV`) or the lock file holds them.
    public struct Base: Sendable {
        /// How findings name it: `HEAD`, the revision, the lock file's name.
        public var name: String
        /// Version name → the Core Data model it built then, when the base holds the sources.
        public var models: [String: Model]
        /// Version name → entity hashes, when the base records them (the lock file).
        public var entityHashes: [String: [String: VersionHash]]

        public init(name: String, models: [String: Model] = [:], entityHashes: [String: [String: VersionHash]] = [:]) {
            self.name = name
            self.models = models
            self.entityHashes = entityHashes
        }
    }

    /// The folder read (`--swiftdata DIR`).
    public var folder: String
    /// In declaration order.
    public var versions: [Version] { didSet { ordered = Self.ordered(versions, plan: plan) } }
    public var plans: [Plan] { didSet { ordered = Self.ordered(versions, plan: plan) } }
    public var containers: [Container] { didSet { ordered = Self.ordered(versions, plan: plan) } }
    /// Where `shipped_version_modified` compares the versions; nil when it does not.
    public var base: Base?
    /// The versions in migration order: the plan's `schemas` as listed (then any version it does
    /// not list, by identifier); without a plan, by `versionIdentifier` when every version has
    /// one, else by name in natural order. Ordered once (and again when the versions, plans or
    /// containers change): every rule and rendering reads it.
    public private(set) var ordered: [Version]

    public init(folder: String, versions: [Version], plans: [Plan], containers: [Container], base: Base? = nil) {
        self.folder = folder
        self.versions = versions
        self.plans = plans
        self.containers = containers
        self.base = base
        ordered = []
        ordered = Self.ordered(versions, plan: plan)
    }

    public func version(named name: String) -> Version? {
        versions.first { $0.name == name }
    }

    /// The plan the app migrates with: the one a `ModelContainer` names, else the first.
    public var plan: Plan? {
        for container in containers {
            if let name = container.plan?.name, let plan = plans.first(where: { $0.name == name }) { return plan }
        }
        return plans.first
    }

    private static func ordered(_ versions: [Version], plan: Plan?) -> [Version] {
        var result: [Version] = []
        var listed = Set<String>()
        if let schemas = plan?.schemas {
            for reference in schemas {
                if let version = versions.first(where: { $0.name == reference.name }), listed.insert(version.name).inserted {
                    result.append(version)
                }
            }
        }
        let rest = versions.filter { !listed.contains($0.name) }
        return result + byIdentifierOrName(rest)
    }

    /// The version the app runs: the last of `ordered`.
    public var latest: Version? { ordered.last }

    /// By `versionIdentifier` when each has one, else by name in natural order (`SchemaV2`
    /// before `SchemaV10`).
    public static func byIdentifierOrName(_ versions: [Version]) -> [Version] {
        if versions.allSatisfy({ $0.identifier != nil }) {
            return versions.sorted { $0.normalizedIdentifier!.lexicographicallyPrecedes($1.normalizedIdentifier!) }
        }
        return versions.sorted { ModelLoader.versionOrder($0.name, $1.name) }
    }

    /// The diff between two versions, classified as for the versions of a bundle.
    public func diff(from older: Version, to newer: Version) -> SchemaDiff {
        SchemaDiff(from: older.model, to: newer.model, olderHashes: older.hashes, newerHashes: newer.hashes)
    }
}

/// A rule over a SwiftData folder's versioned schemas and migration plans. It is also a `Rule`
/// (catalogue, configuration, documentation), whose single-model check finds nothing; its
/// examples are Swift sources (`RuleExample.Document.swiftDataVersions`), which
/// `SwiftDataVersionExampleTests` runs.
public protocol SchemaVersionsRule: Rule {
    func violations(in versions: SwiftDataVersions) -> [Violation]
}

extension SchemaVersionsRule {
    public func violations(in model: LintedModel) -> [Violation] { [] }
    public var asSchemaVersionsRule: (any SchemaVersionsRule)? { self }
}

extension LintEngine {
    /// The findings of the engine's versioned-schema rules over one SwiftData folder, in report
    /// order. Severity overrides apply as for any rule; a `momlint:disable` comment on a class
    /// silences findings about that class in the version the finding points into.
    public func lintSchemaVersions(_ versions: SwiftDataVersions) -> [Finding] {
        var findings: [Finding] = []
        for index in rules.indices {
            guard let rule = instance(at: index).asSchemaVersionsRule else { continue }
            let description = rules[index].description, id = description.id
            for violation in rule.violations(in: versions) {
                let finding = Finding(violation, ruleID: id, severity: severity(of: description, for: violation))
                // The version whose element the finding points at (versions share entity names).
                let owner = versions.versions.first { version in
                    guard let entity = finding.entityName.flatMap(version.model.entity(named:)) else { return false }
                    if entity.location == finding.location { return true }
                    return finding.propertyName.flatMap { version.model.property(named: $0, in: entity) }?.location == finding.location
                }
                if let owner, Suppressions(model: owner.model).silences(finding) { continue }
                findings.append(finding)
            }
        }
        return findings.sorted(by: Finding.reportOrder)
    }
}

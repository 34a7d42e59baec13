import DataModel
import VersionHashes

/// The schema differences between an older and a newer version of a model, each classified
/// for migration (see `SchemaChange` and `docs/migrations.md`).
///
/// This is the one diff engine of momlint: the migration rules, `momlint diff`,
/// `momlint versions` and a store's own migration all read its `changes`.
public struct SchemaDiff: Sendable {
    /// What migrating a store from the older version to the newer one takes.
    public enum Verdict: String, Sendable, Codable {
        /// No version hash changes: stores the older version wrote open as they are.
        case noMigration = "no migration"
        /// Core Data can infer the mapping (lightweight migration).
        case lightweight
        /// Not inferable, but a mapping model for this pair of versions exists.
        case mappingModel = "mapping model"
        /// Not inferable and no mapping model: Core Data fails with 134140.
        case notInferable = "not inferable"
    }

    public var olderVersionName: String
    public var newerVersionName: String
    /// Every change, in the newer version's document order (removed entities last).
    public var changes: [SchemaChange]
    /// True when a `.xcmappingmodel` for this pair of versions was found.
    public var hasMappingModel: Bool

    /// Every entity whose version hash differs between the two versions (computed, docs/version-hashes.md),
    /// renamed entities paired by their renaming identifier, in the newer version's order (removed ones last).
    public var entityHashChanges: [EntityHashChange]

    /// Compares two versions. `hasMappingModel` says whether a mapping model covers the pair.
    /// The versions' hashes are computed unless given (a caller comparing one version with
    /// several computes its hashes once).
    public init(from older: Model, to newer: Model, hasMappingModel: Bool = false,
                olderHashes: ModelVersionHashes? = nil, newerHashes: ModelVersionHashes? = nil) {
        olderVersionName = older.version.name
        newerVersionName = newer.version.name
        self.hasMappingModel = hasMappingModel
        (changes, entityHashChanges) = SchemaComparison(older: older, newer: newer)
            .changes(olderHashes: olderHashes, newerHashes: newerHashes)
    }

    /// A diff of two versions that nobody compares: no changes, and the names for messages.
    public init(notComparing older: Model, to newer: Model) {
        olderVersionName = older.version.name
        newerVersionName = newer.version.name
        hasMappingModel = false
        changes = []
        entityHashChanges = []
    }

    /// Some version hash differs: Core Data must migrate stores the older version wrote.
    public var needsMigration: Bool { changes.contains { $0.hashChanging } }
    /// Every change can be inferred.
    public var isLightweight: Bool { changes.allSatisfy(\.lightweight) }
    /// Some change loses stored values.
    public var losesData: Bool { changes.contains { $0.dataLoss } }
    /// Some change makes the (inferred) migration fail, 134110, on a stored row that has no value
    /// for a required attribute without a default (`SchemaChange.failsWhen`).
    public var mayFail: Bool { changes.contains { $0.failsWhen != nil } }

    /// True when a mapping model for the pair would change what is said of it: the verdict of a
    /// change the inferred mapping cannot make, or the data it loses or the rows it fails on,
    /// which a mapping model (the developer's own migration) takes over.
    public var dependsOnMappingModel: Bool { !isLightweight || losesData || mayFail }

    public var verdict: Verdict {
        if !isLightweight { return hasMappingModel ? .mappingModel : .notInferable }
        return needsMigration ? .lightweight : .noMigration
    }

    /// How migrating a store from the older version to the newer one fails, as Core Data runs it.
    public enum Failure: Sendable, Equatable {
        /// A change the inferred mapping cannot make, and no mapping model: 134140.
        case notInferable
        /// The inferred mapping fails, 134110, on a stored row with no value for a required
        /// attribute without a default (`SchemaChange.failsWhen`): which rows, the change says.
        case missingRequiredValue
    }

    /// Why the migration fails, or may fail on stored rows; nil when it does not. A mapping model
    /// for the pair is the developer's own migration: it takes over both (docs/migrations.md).
    /// The one answer `versions`, `lint`'s stepwise hint and `store check` give.
    public var failure: Failure? {
        if verdict == .notInferable { return .notInferable }
        return mayFail && !hasMappingModel ? .missingRequiredValue : nil
    }
}

/// The renaming identifier of an element as the loader keeps it: Xcode writes the inspector's
/// "Renaming ID" as `elementID`; `renamingIdentifier` is the compiled model's name for it and
/// also occurs in hand-written files.
func elementRenamingID(_ renamingIdentifier: String?, _ elementID: String?) -> String? {
    if let renamingIdentifier, !renamingIdentifier.isEmpty { return renamingIdentifier }
    return elementID?.isEmpty == false ? elementID : nil
}

/// One entity whose version hash differs between two versions: stores that hold the older
/// hash for it do not open with the newer version without a migration.
public struct EntityHashChange: Hashable, Sendable {
    /// The entity's name in the older version; nil when it was added.
    public var olderName: String?
    /// The entity's name in the newer version; nil when it was removed.
    public var newerName: String?
    /// Nil when added, or when the entity cannot be hashed.
    public var olderHash: VersionHash?
    public var newerHash: VersionHash?

    /// The name findings use: the newer one, else the older one.
    public var name: String { newerName ?? olderName ?? "" }
}

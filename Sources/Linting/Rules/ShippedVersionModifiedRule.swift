import DataModel
import ModelDiff
import VersionHashes

/// A version other than the current one that differs from what a base revision (or the lock
/// file) holds: a shipped version edited in place.
public struct ShippedVersionModifiedRule: MigrationRule, SchemaVersionsRule {
    public static let description = RuleDescription(
        id: "shipped_version_modified",
        name: "Shipped Version Modified",
        summary: "A model version other than the current one changed since the base revision (git HEAD, --since REV, or the versions lock file) so that some entity's version hash differs: stores it wrote match no version any more.",
        rationale: """
            A store records the version hash of every entity of the model that wrote it \
            (`NSStoreModelVersionHashes`), and Core Data opens it with a model only when every hash is \
            equal; to migrate it, Core Data looks for the bundled version whose hashes equal the store's. \
            When a shipped version is edited so that an entity's hash changes, the stores it wrote match \
            no version in the app any more: opening them fails with \
            NSPersistentStoreIncompatibleVersionHashError (134100), and migrating them with \
            NSMigrationMissingSourceModelError (134130). momlint computes the hashes as Core Data does \
            (docs/version-hashes.md) and compares each non-current version with the base revision: in a \
            git work tree the working tree and the index against `HEAD` (what a pre-commit hook needs), a \
            revision given with `--since` in CI, or the lock file `momlint versions --lock` writes (which \
            records the hashes). The finding names each entity whose hash changed and the changes that \
            changed it.

            An edit that changes no hash is not this finding: Apple's versionHash pages leave the class \
            name, userInfo, fetch indexes, the renaming identifier, the default value, the value \
            transformer, validation and the delete rule out of the hash, so stores open as they are. Such \
            an edit never reaches existing rows (a new default fills only new objects); where it changes \
            how stored values are read, `migration_unhashed_change` says so.

            In a SwiftData folder (`--swiftdata`) each `VersionedSchema` other than the latest is a shipped \
            version: momlint compiles it to the Core Data model SwiftData builds, as it does the base \
            revision's sources (or reads the hashes `momlint versions --swiftdata DIR --lock` recorded), \
            and compares the entity version hashes. Stores the shipped schema wrote then match no schema of \
            the plan, and SwiftData fails with 134504 ("Cannot use staged migration with an unknown model \
            version").

            Default severity: error. Stores written by the shipped version no longer open at run time.
            """,
        sources: [
            MigrationSource.entityVersionHash.url,
            MigrationSource.propertyVersionHash.url,
            MigrationSource.attributeVersionHash.url,
            MigrationSource.relationshipVersionHash.url,
            "https://developer.apple.com/documentation/coredata/nspersistentstoreincompatibleversionhasherror",
            "https://developer.apple.com/documentation/coredata/nsmigrationmissingsourcemodelerror",
            "docs/version-hashes.md",
            "docs/migrations.md",
        ],
        howToFix: "Revert the older version to what was shipped, and make the change in a new model version.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            // SwiftData: a property added to the shipped SchemaV1 instead of a new version.
            RuleExample(swift: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var title: String = ""
                        var ↓done: Bool = false
                    }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var title: String = ""
                        var done: Bool = false
                        var note: String? = nil
                    }
                }
                """, base: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var title: String = ""
                        var done: Bool = false
                    }
                }
                """),
            // An attribute added to the shipped version: 'Task' hashes differently.
            RuleExample(older: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    ↓<attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                </entity>
                """, current: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                </entity>
                """, olderAtBase: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
            // A uniqueness constraint added to the shipped version: constraints are part of the
            // entity's hash.
            RuleExample(older: """
                <entity name="Tag" representedClassName="Tag">
                    <attribute name="name" attributeType="String"/>
                    <uniquenessConstraints>
                        ↓<uniquenessConstraint>
                            <constraint value="name"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                """, current: """
                <entity name="Tag" representedClassName="Tag">
                    <attribute name="name" attributeType="String"/>
                </entity>
                """, olderAtBase: """
                <entity name="Tag" representedClassName="Tag">
                    <attribute name="name" attributeType="String"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            // SwiftData: the shipped SchemaV1 as HEAD holds it, and a new version beside it.
            RuleExample(swift: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var title: String = ""
                        var done: Bool = false
                    }
                }
                """, base: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                """),
            // A default value changed in the shipped version: not part of any hash.
            RuleExample(older: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String" defaultValueString="Untitled"/>
                </entity>
                """, current: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                </entity>
                """, olderAtBase: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
            // Hash-neutral edits of a shipped version: the class, userInfo, a fetch index and the
            // delete rule. Stores it wrote open as they are.
            RuleExample(older: """
                <entity name="Task" representedClassName="TaskMO">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Person"/>
                    <fetchIndex name="byName">
                        <fetchIndexElement property="name" type="Binary" order="ascending"/>
                    </fetchIndex>
                    <userInfo>
                        <entry key="note" value="edited"/>
                    </userInfo>
                </entity>
                <entity name="Person" representedClassName="Person"/>
                """, current: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
                </entity>
                <entity name="Person" representedClassName="Person"/>
                """, olderAtBase: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
                </entity>
                <entity name="Person" representedClassName="Person"/>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] { [] }

    /// A SwiftData folder: each version but the latest against the base's version of that name.
    public func violations(in versions: SwiftDataVersions) -> [Violation] {
        guard let base = versions.base, let latest = versions.latest else { return [] }
        return versions.ordered.filter { $0.name != latest.name && $0.isComplete }.flatMap { version -> [Violation] in
            let atBase = base.models[version.name]
            let hashes = base.entityHashes[version.name]
            guard atBase != nil || hashes != nil else { return [] }
            return violations(in: MigrationPair(older: version.model, current: latest.model, comparesMigration: false,
                                                olderAtBase: atBase, baseName: base.name, baseEntityHashes: hashes))
        }
    }

    public func violations(in pair: MigrationPair) -> [Violation] {
        guard pair.olderAtBase != nil || pair.baseEntityHashes != nil else { return [] }
        let baseName = pair.baseName ?? "the base revision"
        let edited = pair.olderHashes ?? VersionHasher.hashes(of: pair.older)
        let baseHashes = pair.baseHashes
        // The edit explained change by change, when the base's model is known (git, or a lock
        // file that keeps the text).
        let diff = pair.olderAtBase.map {
            SchemaDiff(from: $0, to: pair.older, olderHashes: baseHashes, newerHashes: edited)
        }
        return ShippedEntityHashes.changed(in: pair, baseHashes: baseHashes, edited: edited, diff: diff).map { entity in
            let explained = entity.changes.map(\.details)
            let how = explained.isEmpty ? entity.fallbackExplanation
                : explained.prefix(3).joined(separator: "; ") + (explained.count > 3 ? "; and \(explained.count - 3) more" : "")
            let location = entity.changes.lazy.compactMap(\.newLocation).first
                ?? pair.older.entity(named: entity.name)?.location ?? pair.older.location
            if pair.older.origin == .swiftData {
                return Violation(
                    message: "'\(pair.olderName)' is not the latest version but changed since \(baseName): "
                        + "model class '\(entity.name)' \(entity.what) (\(how)); stores it wrote match no schema of the "
                        + "migration plan (134504, \"Cannot use staged migration with an unknown model version\"); revert it "
                        + "and make the change in a new VersionedSchema",
                    location: location, entityName: entity.name,
                    propertyName: entity.changes.count == 1 ? entity.changes[0].propertyName : nil,
                    suggestion: "revert '\(pair.olderName)' to \(baseName)")
            }
            return Violation(
                message: "'\(pair.olderName)' is not the current version but changed since \(baseName): "
                    + "entity '\(entity.name)' \(entity.what) (\(how)); stores it wrote match no version in the bundle "
                    + "(134130 when migrating, 134100 when opening); revert it and make the change in a new version",
                location: location, entityName: entity.name, propertyName: entity.changes.count == 1 ? entity.changes[0].propertyName : nil,
                suggestion: "revert '\(pair.olderName)' to \(baseName)")
        }
    }
}

/// The entities of a shipped version whose version hash is not what the base says: what a
/// store written by the shipped version keeps (`NSStoreModelVersionHashes`, by entity name)
/// compared with what the edited version computes. An edit that changes no hash (a default
/// value, a class name, userInfo, an index) leaves every entity here out.
struct ShippedEntityHashes {
    var name: String
    /// "no longer hashes as shipped", "was added", "was removed".
    var what: String
    /// The diff's hash-changing changes of this entity, when the base's model is known.
    var changes: [SchemaChange]
    /// Said when no change explains it (a lock file without text, a parent's change).
    var fallbackExplanation: String

    static func changed(in pair: MigrationPair, baseHashes: ModelVersionHashes?, edited: ModelVersionHashes,
                        diff: SchemaDiff?) -> [ShippedEntityHashes] {
        guard let shipped = pair.baseEntityHashes ?? baseHashes?.entityHashesByName else { return [] }
        let now = edited.entityHashesByName
        let changesByEntity = Dictionary(grouping: diff?.changes.filter(\.hashChanging) ?? [], by: \.entityName)
        var result: [ShippedEntityHashes] = []
        var seen = Set<String>()
        for entity in edited.entities where seen.insert(entity.name).inserted {
            let changes = changesByEntity[entity.name] ?? []
            guard let hash = entity.hash else {
                // Unhashable now (an unknown type): the diff's table decides.
                if !changes.isEmpty {
                    result.append(.init(name: entity.name, what: "changed", changes: changes, fallbackExplanation: ""))
                }
                continue
            }
            guard let before = shipped[entity.name] else {
                if let atBase = baseHashes?.entity(named: entity.name), atBase.hash == nil {
                    continue  // unhashable at the base: nothing to compare with
                }
                result.append(.init(name: entity.name, what: "was added", changes: changes,
                                    fallbackExplanation: "stores hold no hash for it"))
                continue
            }
            guard before != hash else { continue }
            let parent = pair.older.entity(named: entity.name)?.parentEntityName
            let parentChanged = parent.map { now[$0] != shipped[$0] } ?? false
            result.append(.init(
                name: entity.name, what: "no longer hashes as shipped", changes: changes,
                fallbackExplanation: parentChanged ? "its parent '\(parent!)' changed and its hash includes the parent's"
                    : "hash \(before.short)… → \(hash.short)…"))
        }
        // An entity renamed in the shipped version was reported under its new name, with the rename.
        let renamedAway = Set(diff?.changes.filter { $0.kind == .renamed && $0.element == .entity }.compactMap(\.oldName) ?? [])
        for name in shipped.keys.sorted() where now[name] == nil && edited.entity(named: name) == nil && !renamedAway.contains(name) {
            let changes = diff?.changes.filter { $0.hashChanging && $0.entityName == name } ?? []
            result.append(.init(name: name, what: "was removed", changes: changes,
                                fallbackExplanation: "stores still hold its hash"))
        }
        return result
    }
}

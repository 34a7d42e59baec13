import DataModel
import ModelDiff

/// Two schemas of one migration plan that compile to the same Core Data model.
public struct SchemaVersionsIdenticalRule: SchemaVersionsRule {
    public static let description = RuleDescription(
        id: "schema_versions_identical",
        name: "Schema Versions Identical",
        summary: "Two VersionedSchemas of one SchemaMigrationPlan compile to the same Core Data model (equal version hash digests), which stops the app at launch with \"Duplicate version checksums across stages detected\".",
        rationale: """
            SwiftData migrates a store through the plan's `schemas` with Core Data's staged migration \
            (`NSStagedMigrationManager`): each schema becomes a Core Data model, identified by its \
            `versionChecksum`, the checksum of its entities' version hashes. Two schemas whose models hash \
            alike are one model to Core Data, and building the stages throws an \
            `NSInvalidArgumentException`, "Duplicate version checksums across stages detected", which \
            Swift cannot catch: the app stops at launch, before any store is opened (the crash is widely \
            reported; that versionChecksum follows the entity version hashes is inferred from Apple's \
            documentation of `versionChecksum` and `NSLightweightMigrationStage(_:)`, which takes version \
            checksums). Fresh stores, as tests create, never build those stages, so tests pass.

            It usually happens when two versions list the same live `@Model` classes (declared outside any \
            `VersionedSchema`) and differ only by `versionIdentifier`, or when a new version is declared \
            by copying the previous one without changing anything Core Data hashes (a default value, a \
            delete rule, an `@Attribute(originalName:)` are not hashed). momlint computes the version \
            hashes of the model each schema compiles to (docs/version-hashes.md) and compares their \
            digests; the finding names both schemas and why they are alike.

            Default severity: error. The app crashes at launch for every user with a store to migrate.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsmanagedobjectmodel/versionchecksum",
            "https://developer.apple.com/documentation/coredata/nslightweightmigrationstage/init(_:)",
            "https://developer.apple.com/documentation/swiftdata/schemamigrationplan",
            "docs/swiftdata.md",
        ],
        howToFix: "Give the newer schema its own copy of each class, with the change that made it a new version; or, if nothing changed, remove the newer schema and its stage from the plan.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            // Both versions list the live `Item`: one model, two identifiers.
            RuleExample(swift: """
                @Model final class Item { var title: String = "" }
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, ↓SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
            // Nested copies that differ only by a default value, which no version hash includes.
            RuleExample(swift: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "Untitled" }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, ↓SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
        ],
        nonTriggeringExamples: [
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
                        var note: String? = nil
                    }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
        ])

    public init() {}

    public func violations(in versions: SwiftDataVersions) -> [Violation] {
        var result: [Violation] = []
        for plan in versions.plans {
            let schemas = plan.schemas ?? []
            var seen: [(reference: SwiftDataVersions.Reference, version: SwiftDataVersions.Version)] = []
            for reference in schemas {
                guard let version = versions.version(named: reference.name),
                      !seen.contains(where: { $0.version.name == version.name })
                else { continue }
                if version.isComplete, let digest = version.hashes.digest,
                   let twin = seen.first(where: { $0.version.isComplete && $0.version.hashes.digest == digest })?.version {
                    result.append(Violation(
                        message: "'\(twin.name)' and '\(version.name)' in '\(plan.name).schemas' compile to the same Core Data "
                            + "model (version hashes digest \(digest.short)…) because \(Self.why(twin, version)); SwiftData stops "
                            + "at launch with \"Duplicate version checksums across stages detected\" (NSInvalidArgumentException) "
                            + "when it migrates a store; give '\(version.name)' its own copy of the classes that changed, or "
                            + "remove it from the plan",
                        location: reference.location,
                        suggestion: "declare the changed classes inside '\(version.name)'"))
                }
                seen.append((reference, version))
            }
        }
        return result
    }

    /// Why two versions hash alike: the same live classes, or copies that differ in nothing hashed.
    static func why(_ first: SwiftDataVersions.Version, _ second: SwiftDataVersions.Version) -> String {
        let shared = first.liveClasses.filter { live in second.liveClasses.contains { $0.declaration == live.declaration } }
        if !shared.isEmpty {
            return "both use the live \(shared.count == 1 ? "class" : "classes") "
                + shared.map { "'\($0.name)'" }.joined(separator: ", ")
                + " (declared outside every VersionedSchema) and differ in nothing else Core Data hashes"
        }
        return "their classes differ in nothing Core Data hashes (only the version identifier, or defaults, delete rules "
            + "and other unhashed details)"
    }
}

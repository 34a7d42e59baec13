import DataModel

/// A schema other than the latest that lists or reaches a `@Model` class declared outside every
/// `VersionedSchema`.
public struct SchemaVersionUsesLiveModelRule: SchemaVersionsRule {
    public static let description = RuleDescription(
        id: "schema_version_uses_live_model",
        name: "Schema Version Uses Live Model",
        summary: "A VersionedSchema other than the latest lists, or reaches through a relationship, a @Model class declared outside every VersionedSchema that another version uses too: its shape follows every later edit of that class.",
        rationale: """
            A `VersionedSchema` is meant to freeze the shape of the models one release shipped: stores \
            that release wrote record the version hashes of that shape, and SwiftData finds the schema of \
            a store by them. A version whose `models` names a class declared outside every \
            `VersionedSchema` (the live class the app uses), or whose classes reach one through a \
            relationship (SwiftData's `Schema` includes every model reachable from those listed), has no \
            shape of its own: the next edit of that class changes the old version too. Stores written by \
            the real old release then match no schema of the plan, and opening them fails with \
            134504, "Cannot use staged migration with an unknown model version" (the error SwiftData \
            reports; widely reported by developers, not documented by Apple). If the edit changes nothing else, the two \
            versions become identical (`schema_versions_identical`).

            The latest version may use live classes: that is how an app names its current models. A \
            class outside the versions that only one old version uses (a frozen copy kept at the top \
            level under a name of its own, `ItemV1`) is not reported: editing it changes no other \
            version.

            Default severity: warning. Nothing fails until the live class is edited; the finding says \
            that the version is not frozen.
            """,
        sources: [
            "https://developer.apple.com/documentation/swiftdata/versionedschema",
            "https://developer.apple.com/documentation/swiftdata/schema",
            "docs/swiftdata.md",
        ],
        howToFix: "Declare the version's own copy of the class inside the VersionedSchema (or an extension of it), as it was when the version shipped, and list that copy.",
        category: .migration,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(swift: """
                @Model final class Item { var title: String = "" }
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [↓Item.self] }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self, Tag.self] }
                    @Model final class Tag { var name: String = "" }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
            // Reached through a relationship of the version's own class.
            RuleExample(swift: """
                @Model final class Owner { var name: String = "" }
                enum ↓SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var owner: Owner? }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var owner: Owner?
                        var title: String = ""
                    }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
        ],
        nonTriggeringExamples: [
            // Each version's classes are its own, old ones kept at the top level under names of
            // their own: no class is shared, so no edit changes two versions.
            RuleExample(swift: """
                @Model final class ItemV1 { var title: String = "" }
                @Model final class ItemV2 {
                    var title: String = ""
                    var done: Bool = false
                }
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [ItemV1.self] }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [ItemV2.self] }
                }
                """),
            // The old version keeps its own copy; the latest uses the live class.
            RuleExample(swift: """
                @Model final class Item {
                    var title: String = ""
                    var note: String? = nil
                }
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [MyApp.Item.self] }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                """),
        ])

    public init() {}

    public func violations(in versions: SwiftDataVersions) -> [Violation] {
        let ordered = versions.ordered
        guard let latest = ordered.last else { return [] }
        // A class outside every version is live when another version uses it too (the latest
        // above all): one edit changes them all. One that only this old version uses (a frozen
        // copy named `ItemV1` kept at the top level) changes nothing else.
        var users: [SourceLocation: Int] = [:]
        for version in ordered {
            for live in Set(version.liveClasses.map(\.declaration)) { users[live, default: 0] += 1 }
        }
        var result: [Violation] = []
        for version in ordered where version.name != latest.name {
            for live in version.liveClasses where users[live.declaration, default: 0] > 1 {
                let how = live.reachedThrough.map { "reaches '\(live.name)' through '\($0)'" } ?? "lists '\(live.name)'"
                result.append(Violation(
                    message: "'\(version.name)' is not the latest version but \(how), a @Model class declared outside every "
                        + "VersionedSchema (\(live.declaration)): the version changes with every edit of '\(live.name)', and "
                        + "stores written by the shipped '\(version.name)' then match no schema of the plan (134504, \"Cannot "
                        + "use staged migration with an unknown model version\"); declare '\(version.name)''s own copy of "
                        + "'\(live.name)' inside it, as it shipped",
                    location: live.listedAt ?? version.location,
                    suggestion: "copy '\(live.name)' into '\(version.name)'"))
            }
        }
        return result
    }
}

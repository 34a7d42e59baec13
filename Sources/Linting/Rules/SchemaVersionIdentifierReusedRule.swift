import DataModel

/// Two `VersionedSchema`s with one `versionIdentifier`.
public struct SchemaVersionIdentifierReusedRule: SchemaVersionsRule {
    public static let description = RuleDescription(
        id: "schema_version_identifier_reused",
        name: "Schema Version Identifier Reused",
        summary: "Two VersionedSchemas declare the same versionIdentifier.",
        rationale: """
            `VersionedSchema.versionIdentifier` names a version of the schema (`Schema.Version`, a \
            semantic version), and SwiftData identifies the schema of a container by it. Two schemas under \
            one identifier are two shapes under one name: usually a shipped identifier copied into a new \
            version and not bumped. SwiftData cannot tell them apart by identifier, so which model a store \
            is said to have depends on which schema is asked, and a plan holding both cannot order them \
            (`migration_plan_incomplete` orders by identifier). That SwiftData relies on the identifier \
            to tell versions apart is inferred from `VersionedSchema`'s documentation, which requires it \
            of every version.

            Default severity: error. The versions cannot be told apart, and a migration between them is \
            not defined.
            """,
        sources: [
            "https://developer.apple.com/documentation/swiftdata/versionedschema/versionidentifier",
            "https://developer.apple.com/documentation/swiftdata/schema/version",
            "docs/swiftdata.md",
        ],
        howToFix: "Give the newer schema a higher versionIdentifier of its own.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(swift: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item { var title: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static var ↓versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var title: String = ""
                        var done: Bool = false
                    }
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
                    static var versionIdentifier = Schema.Version(1, 1, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var title: String = ""
                        var done: Bool = false
                    }
                }
                """),
        ])

    public init() {}

    public func violations(in versions: SwiftDataVersions) -> [Violation] {
        var first: [[Int]: SwiftDataVersions.Version] = [:]
        var result: [Violation] = []
        // In migration order, so the later version is the one reported.
        for version in versions.ordered {
            guard let identifier = version.normalizedIdentifier else { continue }
            guard let earlier = first[identifier] else {
                first[identifier] = version
                continue
            }
            result.append(Violation(
                message: "'\(version.name)' declares versionIdentifier \(version.identifierText ?? ""), which '\(earlier.name)' "
                    + "declares too; each version needs an identifier of its own, so give '\(version.name)' a higher one",
                location: version.identifierLocation ?? version.location,
                suggestion: "bump the versionIdentifier of '\(version.name)'"))
        }
        return result
    }
}

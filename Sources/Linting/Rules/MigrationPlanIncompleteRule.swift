import DataModel

/// A `SchemaMigrationPlan` whose schemas, stages or container do not make one path from the
/// oldest version to the one the app runs.
public struct MigrationPlanIncompleteRule: SchemaVersionsRule {
    public static let description = RuleDescription(
        id: "migration_plan_incomplete",
        name: "Migration Plan Incomplete",
        summary: "A SchemaMigrationPlan's schemas are not in versionIdentifier order, two neighbouring schemas have no stage, a stage joins versions that are not neighbours in schemas, or a ModelContainer is made with a schema that is not the plan's last.",
        rationale: """
            A `SchemaMigrationPlan` lists its `schemas` oldest first and one `MigrationStage` for each \
            step between neighbours (Apple's WWDC23 session "Model your schema with SwiftData" and the \
            `SchemaMigrationPlan` documentation); SwiftData hands them to Core Data's staged migration, \
            which migrates a store one stage at a time from the schema it matches to the app's current \
            one. A plan that breaks that chain fails when it meets a store it cannot route:

            - `schemas` out of `versionIdentifier` order: the plan's order is the migration order, so a \
              store is moved "back" to an older identifier, or a step is skipped;
            - two neighbouring schemas with no stage between them: a store of the older one has no stage \
              to take it on;
            - a stage between versions that are not neighbours in `schemas` (or not in `schemas` at all): \
              staged migration walks the versions in order, and a stage that jumps or points outside the \
              list has no place in it;
            - a `ModelContainer(for: Schema(versionedSchema: X.self), migrationPlan: P.self)` where `X` is \
              not `P`'s last schema: the container opens stores with `X`, and the plan's later stages have \
              no model to reach.

            That each of these fails, rather than being repaired by SwiftData, is inferred from how \
            staged migration is documented (each stage names its two models; \
            `NSStagedMigrationManager(_:)` takes the stages in order), and reported failures \
            ("Cannot use staged migration with an unknown model version", 134504).

            Default severity: error. Stores that reach the broken step fail to open at launch.
            """,
        sources: [
            "https://developer.apple.com/documentation/swiftdata/schemamigrationplan",
            "https://developer.apple.com/documentation/coredata/nsstagedmigrationmanager",
            "https://developer.apple.com/videos/play/wwdc2023/10195/",
            "docs/swiftdata.md",
        ],
        howToFix: "List the schemas oldest first, add one stage for each pair of neighbours (from the older to the newer), and make the container with the plan's last schema.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            // V3 was added to `schemas` without a stage from V2, and the container still uses V2.
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
                enum SchemaV3: VersionedSchema {
                    static var versionIdentifier = Schema.Version(3, 0, 0)
                    static var models: [any PersistentModel.Type] { [Item.self] }
                    @Model final class Item {
                        var title: String = ""
                        var done: Bool = false
                        var note: String? = nil
                    }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self, ↓SchemaV3.self] }
                    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
                }
                let container = try ModelContainer(for: Schema(versionedSchema: ↓SchemaV2.self), migrationPlan: Plan.self)
                """),
            // Out of order, and a stage that jumps over a version.
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
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV2.self, ↓SchemaV1.self] }
                    static var stages: [MigrationStage] { [↓.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
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
                        var done: Bool = false
                    }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { v1Stages }
                    static let v1Stages = [MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)]
                }
                let schema = Schema(versionedSchema: SchemaV2.self)
                let container = try ModelContainer(for: schema, migrationPlan: Plan.self)
                """),
        ])

    public init() {}

    public func violations(in versions: SwiftDataVersions) -> [Violation] {
        var result: [Violation] = []
        for plan in versions.plans {
            guard let schemas = plan.schemas else { continue }
            let known = schemas.filter { versions.version(named: $0.name) != nil }
            // Order by versionIdentifier (equal identifiers are schema_version_identifier_reused's).
            for (previous, next) in zip(known, known.dropFirst()) {
                guard let older = versions.version(named: previous.name), let newer = versions.version(named: next.name),
                      let olderIdentifier = older.normalizedIdentifier, let newerIdentifier = newer.normalizedIdentifier,
                      newerIdentifier.lexicographicallyPrecedes(olderIdentifier)
                else { continue }
                result.append(Violation(
                    message: "'\(plan.name).schemas' lists '\(next.name)' (\(newer.identifierText ?? "")) after '\(previous.name)' "
                        + "(\(older.identifierText ?? "")); the plan migrates stores in the order it lists, so list the schemas by "
                        + "versionIdentifier, oldest first",
                    location: next.location, suggestion: "move '\(next.name)' before '\(previous.name)'"))
            }
            if let stages = plan.stages {
                let position = Dictionary(schemas.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
                for (previous, next) in zip(schemas, schemas.dropFirst()) where !stages.contains(where: {
                    $0.from?.name == previous.name && $0.to?.name == next.name
                }) {
                    // A pair already reported as out of order needs its order fixed first.
                    if result.contains(where: { $0.location == next.location }) { continue }
                    result.append(Violation(
                        message: "'\(plan.name)' has no stage from '\(previous.name)' to '\(next.name)', neighbours in its "
                            + "schemas; stores of '\(previous.name)' have no way to '\(next.name)'; add "
                            + "MigrationStage.lightweight(fromVersion: \(previous.name).self, toVersion: \(next.name).self) "
                            + "(or a custom stage) to its stages",
                        location: next.location,
                        suggestion: "add a stage from '\(previous.name)' to '\(next.name)'"))
                }
                for stage in stages {
                    guard let from = stage.from?.name, let to = stage.to?.name else { continue }
                    let missing = [from, to].filter { position[$0] == nil }
                    if !missing.isEmpty {
                        result.append(Violation(
                            message: "the stage \(stage.label) of '\(plan.name)' names "
                                + missing.map { "'\($0)'" }.joined(separator: " and ")
                                + ", which '\(plan.name).schemas' does not list; list every version the stages name",
                            location: stage.location))
                    } else if let a = position[from], let b = position[to], b != a + 1 {
                        result.append(Violation(
                            message: "the stage \(stage.label) of '\(plan.name)' does not join neighbours of its schemas ("
                                + (b <= a ? "it goes backwards" : "it skips \(schemas[(a + 1)..<b].map { "'\($0.name)'" }.joined(separator: ", "))")
                                + "); each stage goes from one schema to the next",
                            location: stage.location))
                    }
                }
            }
            // The container must open stores with the plan's last schema.
            guard let last = schemas.last else { continue }
            for container in versions.containers where container.plan?.name == plan.name {
                guard let schema = container.schema, versions.version(named: schema.name) != nil, schema.name != last.name
                else { continue }
                result.append(Violation(
                    message: "this ModelContainer is made with '\(schema.name)' and the migration plan '\(plan.name)', whose "
                        + "last schema is '\(last.name)'; a store migrated to '\(last.name)' would not match '\(schema.name)', "
                        + "so make the container with Schema(versionedSchema: \(last.name).self)",
                    location: schema.location, suggestion: "use '\(last.name)'"))
            }
        }
        return result
    }
}

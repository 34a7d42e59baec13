import DataModel
import ModelDiff

/// A stage of a SwiftData migration plan whose change Core Data cannot migrate.
public struct MigrationStageNotInferableRule: SchemaVersionsRule {
    public static let description = RuleDescription(
        id: "migration_stage_not_inferable",
        name: "Migration Stage Not Inferable",
        summary: "A MigrationStage between two VersionedSchemas makes a change that Core Data cannot migrate: a change lightweight migration cannot infer, a required property that existing rows have no value for.",
        rationale: """
            SwiftData runs each `MigrationStage` of a `SchemaMigrationPlan` as a stage of Core Data's \
            staged migration. A `.lightweight(fromVersion:toVersion:)` stage is Core Data's lightweight \
            migration between the two models (`NSLightweightMigrationStage`), so what lightweight \
            migration cannot do, the stage cannot: momlint judges each stage's changes with the same \
            classification (`SchemaDiff`) as `migration_not_inferable` and \
            `migration_required_without_default` judge the versions of a model bundle \
            (docs/migrations.md). A change it cannot infer fails with 134140; a required property added \
            without an initial value, or a required to-one relationship added, leaves every existing row \
            without a value, and the migration fails validation (134110). In SwiftData a property's \
            initial value (`var count: Int = 0`) is its default value; `var targetPerWeek: Int` has none.

            A `.custom(fromVersion:toVersion:willMigrate:didMigrate:)` stage is Core Data's \
            `NSCustomMigrationStage`: Apple documents its handlers as running before and after the stage \
            (`willMigrate` on the store as the old schema has it, `didMigrate` on the new), "to prepare \
            the persistent store's data for the upcoming changes before the stage runs, and perform any \
            cleanup tasks afterward". The stage between them still migrates the store from one model to \
            the other, so it must still be inferable (inferred from that description; Apple's \
            staged-migration example splits a non-inferable change into inferable steps). What a handler \
            can do is Apple's own example: an optional attribute made non-optional, whose nil values \
            `willMigrate` fills in before the stage runs. So a custom stage with `willMigrate` is not \
            reported for an attribute made required; a value added as required, a required relationship \
            and a change that cannot be inferred are reported for both kinds of stage.

            Default severity: error. The migration fails at launch for every user with a store of the \
            older version.
            """,
        sources: [
            "https://developer.apple.com/documentation/swiftdata/migrationstage",
            "https://developer.apple.com/documentation/coredata/nscustommigrationstage",
            "https://developer.apple.com/documentation/coredata/nscustommigrationstage/willmigratehandler-5wead",
            "https://developer.apple.com/documentation/coredata/nslightweightmigrationstage",
            MigrationSource.lightweightMigration.url,
            "docs/migrations.md",
            "docs/swiftdata.md",
        ],
        howToFix: "Give the new property an initial value (or make it optional); split a change lightweight migration cannot infer into steps it can (add the new property in one version, copy the values in a custom stage's didMigrate, remove the old one in the next); fill nil values in a custom stage's willMigrate before making a property required.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            // A required property with no initial value: existing rows have no value for it.
            RuleExample(swift: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Habit.self] }
                    @Model final class Habit { var name: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Habit.self] }
                    @Model final class Habit {
                        var name: String = ""
                        var ↓targetPerWeek: Int
                        init(targetPerWeek: Int) { self.targetPerWeek = targetPerWeek }
                    }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [migrateV1toV2] }
                    static let migrateV1toV2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)
                }
                """),
            // A type change lightweight migration does not infer, in a custom stage: the handlers
            // run before and after the stage, which still migrates between the two models.
            RuleExample(swift: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Trip.self] }
                    @Model final class Trip { var budget: String = "" }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Trip.self] }
                    @Model final class Trip { var ↓budget: Date = Date.now }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] {
                        [MigrationStage.custom(fromVersion: SchemaV1.self, toVersion: SchemaV2.self, willMigrate: nil, didMigrate: { _ in })]
                    }
                }
                """),
        ],
        nonTriggeringExamples: [
            RuleExample(swift: """
                enum SchemaV1: VersionedSchema {
                    static var versionIdentifier = Schema.Version(1, 0, 0)
                    static var models: [any PersistentModel.Type] { [Habit.self] }
                    @Model final class Habit { var name: String? }
                }
                enum SchemaV2: VersionedSchema {
                    static var versionIdentifier = Schema.Version(2, 0, 0)
                    static var models: [any PersistentModel.Type] { [Habit.self] }
                    @Model final class Habit {
                        var name: String
                        var targetPerWeek: Int = 3
                        init(name: String) { self.name = name }
                    }
                }
                enum Plan: SchemaMigrationPlan {
                    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                    static var stages: [MigrationStage] { [migrateV1toV2] }
                    // willMigrate fills the names left nil before 'name' becomes required (Apple's example).
                    static let migrateV1toV2 = MigrationStage.custom(
                        fromVersion: SchemaV1.self, toVersion: SchemaV2.self,
                        willMigrate: { context in try context.save() }, didMigrate: nil)
                }
                """),
        ])

    public init() {}

    public func violations(in versions: SwiftDataVersions) -> [Violation] {
        guard let plan = versions.plan else { return [] }
        var result: [Violation] = []
        for stage in plan.stages ?? [] {
            guard let judged = Self.judge(stage, in: versions) else { continue }
            let kind = stage.kind == .custom ? "custom stage" : "lightweight stage"
            for (change, why) in judged.failures {
                result.append(Violation(
                    message: "the \(kind) \(stage.label) of '\(plan.name)': \(change.details); \(why)",
                    location: change.location(orEntityIn: judged.to.model) ?? stage.location,
                    entityName: change.entityName, propertyName: change.propertyName,
                    suggestion: Self.suggestion(for: change)))
            }
        }
        return result
    }

    /// A stage judged: its two versions, their diff, and each change the stage fails on, with
    /// why. Nil when the stage's versions are not both known, distinct and complete.
    public struct Judgement: Sendable {
        public var from: SwiftDataVersions.Version
        public var to: SwiftDataVersions.Version
        public var diff: SchemaDiff
        public var failures: [(change: SchemaChange, why: String)]
    }

    /// What `momlint versions --swiftdata` shows for each stage, and this rule reports.
    public static func judge(_ stage: SwiftDataVersions.Stage, in versions: SwiftDataVersions) -> Judgement? {
        guard let fromName = stage.from?.name, let toName = stage.to?.name,
              let from = versions.version(named: fromName), let to = versions.version(named: toName), from.name != to.name,
              from.isComplete, to.isComplete
        else { return nil }
        let diff = versions.diff(from: from, to: to)
        let failures = diff.changes.compactMap { change in
            failure(of: change, in: to.model, stage: stage).map { (change, $0) }
        }
        return Judgement(from: from, to: to, diff: diff, failures: failures)
    }

    /// Why the stage fails on `change`, or nil when it does not.
    static func failure(of change: SchemaChange, in newer: Model, stage: SwiftDataVersions.Stage) -> String? {
        let custom = stage.kind == .custom
        if !change.lightweight {
            return "lightweight migration cannot infer it (134140)"
                + (custom ? ", and a custom stage's willMigrate and didMigrate run before and after that migration, not instead of it" : "")
                + "; add the new property beside the old one, copy the values in a custom stage's didMigrate, and "
                + "remove the old one in a later version"
        }
        switch change.failsWhen {
        case .everyRow?:
            return "rows written by '\(stage.from?.name ?? "")' have no value for it, so the migration fails (134110) if "
                + "the store holds any" + (custom ? " (didMigrate runs after the migration, too late to supply it)" : "")
                + "; give it an initial value or make it optional"
        case .rowsWithoutValue?:
            if custom && stage.hasWillMigrate { return nil }
            return "rows written by '\(stage.from?.name ?? "")' that hold nil for it make the migration fail (134110); "
                + "give it an initial value, or fill the nil values in a custom stage's willMigrate"
        case nil:
            break
        }
        // A required relationship added, or made required: existing rows have no object for it.
        guard change.element == .relationship, change.kind == .added || change.aspect == .isOptional || change.aspect == .count,
              let entity = newer.entity(named: change.entityName),
              let relationship = entity.relationships.first(where: { $0.name == change.elementName }),
              !relationship.isOptional || (relationship.minCount ?? 0) > 0
        else { return nil }
        return "rows written by '\(stage.from?.name ?? "")' have no related object for it, so the migration fails "
            + "validation (134110); make it optional, or add it as optional and fill it in a custom stage's didMigrate "
            + "before making it required in a later version"
    }

    static func suggestion(for change: SchemaChange) -> String? {
        guard change.lightweight, let name = change.elementName else { return nil }
        return change.element == .attribute ? "give '\(change.entityName).\(name)' an initial value" : nil
    }
}

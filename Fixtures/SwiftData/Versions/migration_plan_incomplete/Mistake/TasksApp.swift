import SwiftData

// Mistake: SchemaV3 was added to 'schemas' without a stage from SchemaV2, and the container is
// still made with SchemaV2, which is no longer the plan's last schema.
enum TasksMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self, SchemaV3.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static let migrateV1toV2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)
}

func makeContainer() throws -> ModelContainer {
    try ModelContainer(for: Schema(versionedSchema: SchemaV2.self), migrationPlan: TasksMigrationPlan.self)
}

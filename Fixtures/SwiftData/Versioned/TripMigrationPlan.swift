import SwiftData

enum TripMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static let migrateV1toV2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)
}

typealias Item = SchemaV2.Item
typealias Owner = SchemaV2.Owner

func makeContainer() throws -> ModelContainer {
    try ModelContainer(for: Schema(versionedSchema: SchemaV2.self), migrationPlan: TripMigrationPlan.self)
}

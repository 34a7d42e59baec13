import SwiftData

enum NotesMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [Schemas.V1.self, Schemas.V2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static let migrateV1toV2 = MigrationStage.lightweight(fromVersion: Schemas.V1.self, toVersion: Schemas.V2.self)
}

typealias Item = Schemas.V2.Item
typealias Tag = Schemas.V2.Tag

func makeContainer() throws -> ModelContainer {
    try ModelContainer(for: Schema(versionedSchema: Schemas.V2.self), migrationPlan: NotesMigrationPlan.self)
}

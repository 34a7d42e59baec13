import Foundation
import SwiftData

// Corrected: 'targetPerWeek' has an initial value, which SwiftData gives existing rows.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self] }

    @Model
    final class Habit {
        var name: String = ""
        var createdAt: Date = Date.now

        init() {}
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Habit.self] }

    @Model
    final class Habit {
        var name: String = ""
        var createdAt: Date = Date.now
        var targetPerWeek: Int = 3

        init(targetPerWeek: Int) {
            self.targetPerWeek = targetPerWeek
        }
    }
}

enum HabitMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [migrateV1toV2] }

    static let migrateV1toV2 = MigrationStage.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)
}

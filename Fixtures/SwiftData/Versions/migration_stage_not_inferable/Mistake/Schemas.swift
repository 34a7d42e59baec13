import Foundation
import SwiftData

// Mistake: SchemaV2 adds 'targetPerWeek' as a required Int with no initial value. The
// lightweight stage leaves every stored habit without a value, and the migration fails at
// launch (134110) for every user who has one.
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
        var targetPerWeek: Int

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

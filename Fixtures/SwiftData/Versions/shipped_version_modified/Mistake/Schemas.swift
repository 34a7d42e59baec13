import Foundation
import SwiftData

// Mistake: the shipped SchemaV1 was edited in place ('year' made optional) instead of in a new
// version. Stores the real V1 wrote record the hashes in Mistake.momlint-lock.json and match no
// schema of the plan any more (134504).
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Movie.self] }

    @Model
    final class Movie {
        var title: String = ""
        var year: Int? = 2000

        init() {}
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Movie.self] }

    @Model
    final class Movie {
        var title: String = ""
        var year: Int = 2000
        var rating: Int = 0

        init() {}
    }
}

enum MoviesMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
}

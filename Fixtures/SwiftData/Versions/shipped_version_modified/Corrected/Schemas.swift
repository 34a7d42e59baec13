import Foundation
import SwiftData

// Corrected: SchemaV1 is as it shipped (its hashes are in Corrected.momlint-lock.json, written
// by `momlint versions --swiftdata Corrected --lock`); the new property is in SchemaV2.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Movie.self] }

    @Model
    final class Movie {
        var title: String = ""
        var year: Int = 2000

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

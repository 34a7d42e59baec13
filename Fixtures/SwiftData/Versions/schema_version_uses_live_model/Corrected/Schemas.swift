import Foundation
import SwiftData

// Corrected: SchemaV1 keeps its own copy of 'Book' as it shipped; only the latest version
// lists the live class.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Book.self] }

    @Model
    final class Book {
        var title: String = ""
        var author: String = ""

        init() {}
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [LibraryApp.Book.self, Shelf.self] }

    @Model
    final class Shelf {
        var name: String = ""

        init() {}
    }
}

@Model
final class Book {
    var title: String = ""
    var author: String = ""

    init() {}
}

enum LibraryMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
}

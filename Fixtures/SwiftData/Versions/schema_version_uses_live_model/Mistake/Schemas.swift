import Foundation
import SwiftData

// Mistake: the shipped SchemaV1 lists the live 'Book' (declared below, outside every
// VersionedSchema). The next edit of 'Book' changes SchemaV1 too, and stores the real V1 wrote
// stop matching it (134504).
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Book.self] }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Book.self, Shelf.self] }

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

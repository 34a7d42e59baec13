import Foundation
import SwiftData

// Mistake: SchemaV2 was declared by copying SchemaV1 and changing only a default value, which
// no version hash includes: both compile to one Core Data model, and the app stops at launch
// with "Duplicate version checksums across stages detected".
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model
    final class Note {
        var title: String = ""
        var pinned: Bool = false

        init() {}
    }
}

enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Note.self] }

    @Model
    final class Note {
        var title: String = "Untitled"
        var pinned: Bool = false

        init() {}
    }
}

enum NotesMigrationPlan: SchemaMigrationPlan {
    static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
    static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
}

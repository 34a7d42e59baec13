import Foundation
import SwiftData

// The current version, its classes declared in an extension of the schema.
enum SchemaV2: VersionedSchema {
    static var versionIdentifier = Schema.Version(2, 0, 0)
    static var models: [any PersistentModel.Type] { [Item.self, Owner.self] }
}

extension SchemaV2 {
    @Model
    final class Item {
        var title: String = ""
        @Attribute(originalName: "description") var summary: String = ""
        var owner: Owner?
        // Mistake: an unsigned integer, which Core Data cannot store as such.
        var priority: UInt8 = 0

        init() {}
    }

    @Model
    final class Owner {
        var name: String = ""
        var items: [Item]? = []

        init() {}
    }
}

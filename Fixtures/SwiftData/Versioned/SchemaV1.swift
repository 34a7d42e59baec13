import Foundation
import SwiftData

// The first shipped version. Its classes are not linted: only the latest version is (the last
// schema TripMigrationPlan lists). 'Item.description' clashes with NSObject's description; V2
// renames it, so nothing reports it here.
enum SchemaV1: VersionedSchema {
    static var versionIdentifier = Schema.Version(1, 0, 0)
    static var models: [any PersistentModel.Type] { [Item.self, Owner.self] }

    @Model
    final class Item {
        var title: String = ""
        var description: String = ""
        var owner: Owner?

        init() {}
    }

    @Model
    final class Owner {
        var name: String = ""
        var items: [Item]? = []

        init() {}
    }
}

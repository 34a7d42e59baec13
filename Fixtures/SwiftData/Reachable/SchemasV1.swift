import Foundation
import SwiftData

// Two shapes found in public apps that momlint once reported as unknown_destination errors,
// though SwiftData builds them: an inverse key path written with the schema's full path
// (`\Schemas.V1.Item.tags`, as muukii/Tone.app writes it), and (in V2) a model class that a
// listed class uses but `models` does not list (as bradleymackey/vault-ios's V3 does).
enum Schemas {}

extension Schemas {
    enum V1: VersionedSchema {
        static var versionIdentifier = Schema.Version(1, 0, 0)
        static var models: [any PersistentModel.Type] { [Item.self, Tag.self] }

        @Model
        final class Item {
            var title: String = ""
            var tags: [Tag] = []

            init() {}
        }

        @Model
        final class Tag {
            var name: String = ""
            @Relationship(inverse: \Schemas.V1.Item.tags) var items: [Item] = []

            init() {}
        }
    }
}

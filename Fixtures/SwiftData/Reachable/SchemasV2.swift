import Foundation
import SwiftData

extension Schemas {
    enum V2: VersionedSchema {
        static var versionIdentifier = Schema.Version(2, 0, 0)
        // `Details` is not listed: SwiftData's Schema includes it, reached through `Item.details`.
        static var models: [any PersistentModel.Type] { [Item.self, Tag.self] }

        @Model
        final class Item {
            var title: String = ""
            var tags: [Tag] = []
            @Relationship(deleteRule: .cascade, inverse: \Schemas.V2.Details.item) var details: Details?

            init() {}
        }

        @Model
        final class Tag {
            var name: String = ""
            @Relationship(inverse: \Schemas.V2.Item.tags) var items: [Item] = []

            init() {}
        }

        @Model
        final class Details {
            var body: Data = Data()
            var item: Item?

            init() {}
        }
    }
}

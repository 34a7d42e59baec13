import Foundation
import SwiftData

@Model
final class Folder {
    var name: String = ""

    // Mistake: CloudKit does not support the Deny delete rule.
    @Relationship(deleteRule: .deny, inverse: \Document.folder)
    var documents: [Document]? = []

    init(name: String) {
        self.name = name
    }
}

@Model
final class Document {
    var title: String = ""
    @Attribute(.externalStorage) var contents: Data?
    var folder: Folder?

    init(title: String) {
        self.title = title
    }
}

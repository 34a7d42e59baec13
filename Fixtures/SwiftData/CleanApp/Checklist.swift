import Foundation
import SwiftData

@Model
final class Checklist {
    var title: String = ""

    @Relationship(deleteRule: .cascade, inverse: \ChecklistItem.checklist)
    var items: [ChecklistItem]? = []

    init(title: String) {
        self.title = title
    }
}

@Model
final class ChecklistItem {
    var text: String = ""
    var isDone: Bool = false
    var checklist: Checklist?

    init(text: String) {
        self.text = text
    }
}

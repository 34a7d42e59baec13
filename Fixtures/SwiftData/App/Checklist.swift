import Foundation
import SwiftData

@Model
final class Checklist {
    var title: String = ""

    // Mistake: No Action leaves each item's `checklist` pointing at a deleted checklist.
    @Relationship(deleteRule: .noAction, inverse: \ChecklistItem.checklist)
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

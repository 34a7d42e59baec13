import Foundation
import SwiftData

@Model
final class Note {
    var text: String = ""
    var created: Date = Date.now

    init(text: String) {
        self.text = text
    }
}

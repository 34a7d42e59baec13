import Foundation
import SwiftData

// Mistake: `description` is a method of NSObject, which every SwiftData model's managed
// object inherits.
@Model
final class Note {
    var description: String = ""
    var created: Date = Date.now

    init(description: String) {
        self.description = description
    }
}

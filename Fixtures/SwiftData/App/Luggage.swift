import Foundation
import SwiftData

// Mistake: an unsigned integer, which no Core Data attribute type stores as such.
@Model
final class Luggage {
    var label: String = ""
    var weightInGrams: UInt32 = 0

    init(label: String) {
        self.label = label
    }
}

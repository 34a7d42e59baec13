import Foundation
import SwiftData

@Model
final class Luggage {
    var label: String = ""
    var weightInGrams: Int64 = 0

    init(label: String) {
        self.label = label
    }
}

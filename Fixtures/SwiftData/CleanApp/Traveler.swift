import Foundation
import SwiftData

// A two-way relationship: Trip.travelers is the only way back, so SwiftData pairs them.
@Model
final class Traveler {
    var name: String = ""
    var email: String?
    var trips: [Trip]? = []

    init(name: String) {
        self.name = name
    }
}

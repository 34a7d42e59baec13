import Foundation
import SwiftData

// Mistake: a one-way relationship. Trip has no relationship back to Traveler, so SwiftData
// has no inverse to keep in step, and CloudKit refuses a relationship without one.
@Model
final class Traveler {
    var name: String = ""
    var email: String?
    var trips: [Trip]? = []

    init(name: String) {
        self.name = name
    }
}

import Foundation
import SwiftData

@Model
final class Trip {
    #Index<Trip>([\.startDate], [\.name, \.startDate])

    var name: String = ""
    var startDate: Date = Date.now
    var endDate: Date = Date.now
    var budget: Decimal = 0
    var notes: String?
    var isArchived: Bool = false

    @Relationship(deleteRule: .cascade, inverse: \Stop.trip)
    var stops: [Stop]? = []

    // No inverse named: Expense.trip is the only way back, so SwiftData pairs the two.
    @Relationship(deleteRule: .cascade)
    var expenses: [Expense]? = []

    var travelers: [Traveler]? = []

    init(name: String, startDate: Date, endDate: Date) {
        self.name = name
        self.startDate = startDate
        self.endDate = endDate
    }

    var duration: TimeInterval {
        endDate.timeIntervalSince(startDate)
    }
}

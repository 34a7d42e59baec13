import Foundation
import SwiftData

@Model
final class Flight {
    var number: String = ""
    var departure: Date = Date.now

    @Relationship(deleteRule: .cascade, inverse: \Ticket.flight)
    var tickets: [Ticket]? = []

    init(number: String) {
        self.number = number
    }
}

// Mistake: a non-optional to-one relationship in a model synced with CloudKit.
@Model
final class Ticket {
    var seat: String = ""
    var flight: Flight

    init(seat: String, flight: Flight) {
        self.seat = seat
        self.flight = flight
    }
}

import Foundation
import SwiftData

// Mistake: a non-optional attribute without a default in a model synced with CloudKit.
@Model
final class Booking {
    var confirmationNumber: String
    var checkIn: Date = Date.now
    var nights: Int = 1

    init(confirmationNumber: String) {
        self.confirmationNumber = confirmationNumber
    }
}

import Foundation
import SwiftData

@Model
final class Booking {
    var confirmationNumber: String = ""
    var checkIn: Date = Date.now
    var nights: Int = 1

    init(confirmationNumber: String) {
        self.confirmationNumber = confirmationNumber
    }
}

import Foundation
import SwiftData

@Model
final class Expense {
    var title: String = ""
    var amount: Decimal = 0
    var currencyCode: String = "EUR"

    @Attribute(originalName: "paidOn")
    var date: Date = Date.now

    var trip: Trip?

    init(title: String, amount: Decimal) {
        self.title = title
        self.amount = amount
    }
}

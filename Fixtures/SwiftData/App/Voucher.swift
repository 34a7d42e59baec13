import Foundation
import SwiftData

// Mistake: a unique attribute in a model synced with CloudKit, which has no unique constraints.
@Model
final class Voucher {
    @Attribute(.unique) var code: String = ""
    var value: Decimal = 0
    var expires: Date?

    init(code: String, value: Decimal) {
        self.code = code
        self.value = value
    }
}

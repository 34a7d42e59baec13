import Foundation
import SwiftData

// Codes are deduplicated in code: CloudKit has no unique constraints.
@Model
final class Voucher {
    var code: String = ""
    var value: Decimal = 0
    var expires: Date?

    init(code: String, value: Decimal) {
        self.code = code
        self.value = value
    }
}

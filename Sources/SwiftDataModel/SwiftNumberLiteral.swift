/// The value of a Swift number literal, written as a decimal number a `contents` file's
/// `defaultValueString` could hold, so the rules check the value SwiftData stores rather than the
/// literal's spelling (`0o77` is 63, `0b1111_1111` is 255, `0x1p-2` is 0.25).
///
/// Swift's grammar (The Swift Programming Language, "Lexical Structure", *Integer Literals* and
/// *Floating-Point Literals*): an integer literal is decimal, or `0b` binary, `0o` octal or `0x`
/// hexadecimal digits, with `_` anywhere after the first digit; a floating-point literal is
/// decimal with an optional fraction and `e` exponent, or hexadecimal with an optional fraction
/// and a required `p` exponent (a power of two). A minus sign is a prefix operator, not part of
/// the literal. Anything else gives nil: the reader then keeps the initial value as code
/// ("has a default") and no rule checks it.
enum SwiftNumberLiteral {
    /// Digits beyond this many are not converted (nil): no type SwiftData stores holds such a
    /// number, and converting longer text would take time quadratic in its length.
    static let maximumDigitCount = 1_000

    /// `0o77` → "63", `-0x80` → "-128", `1_000` → "1000": exact, whatever the size.
    static func integerValue(_ literal: String, isNegative: Bool) -> String? {
        var text = Substring(literal)
        var radix = 10
        for (prefix, base) in [("0x", 16), ("0o", 8), ("0b", 2)] where text.hasPrefix(prefix) {
            text = text.dropFirst(2)
            radix = base
        }
        let digits = text.filter { $0 != "_" }
        guard !digits.isEmpty, digits.count <= maximumDigitCount, text.first != "_" else { return nil }
        // Little-endian decimal digits of the value, each step multiplying by the radix and
        // adding the next digit.
        var decimal: [UInt8] = [0]
        for character in digits {
            guard let digit = character.hexDigitValue, digit < radix else { return nil }
            var carry = digit
            for index in decimal.indices {
                let product = Int(decimal[index]) * radix + carry
                decimal[index] = UInt8(product % 10)
                carry = product / 10
            }
            while carry > 0 {
                decimal.append(UInt8(carry % 10))
                carry /= 10
            }
        }
        while decimal.count > 1, decimal.last == 0 { decimal.removeLast() }
        let magnitude = String(decimal.reversed().map { Character(String($0)) })
        return isNegative && magnitude != "0" ? "-" + magnitude : magnitude
    }

    /// `1_000.5` → "1000.5", `1e3` → "1e3", `0x1p-2` → "0.25". A decimal literal keeps its
    /// digits (underscores dropped), so a value too large for its type is still reported with
    /// them; a hexadecimal one is converted, as `Double` reads it exactly.
    static func floatValue(_ literal: String, isNegative: Bool) -> String? {
        let text = literal.filter { $0 != "_" }
        guard !text.isEmpty, text.count <= maximumDigitCount, literal.first != "_" else { return nil }
        let sign = isNegative ? "-" : ""
        if text.hasPrefix("0x") {
            guard text.contains(where: { $0 == "p" || $0 == "P" }), let value = Double(text) else { return nil }
            return sign + (value.isFinite ? String(value) : text)
        }
        guard text.allSatisfy({ $0.isASCII && ($0.isNumber || ".eE+-".contains($0)) }), Double(text) != nil else { return nil }
        return sign + text
    }
}

import DataModel
import Linting
import SourceConsistency
import SwiftDataModel
import Testing

/// Initial values: every Swift number literal is read as the value it denotes, and
/// `default_value_invalid` judges it as Swift does, against the Swift type, in Swift's terms.
@Suite struct SwiftDataInitialValueTests {
    private func model(_ source: String) throws -> Model {
        let read = SwiftDataReader().read(files: [SwiftSourceFile(path: "Sources/App/File.swift", text: source)], name: "Sources/App")
        #expect(read.problems.isEmpty, "\(read.problems)")
        return try #require(read.model)
    }

    private func defaults(of source: String) throws -> [String: String] {
        let entity = try #require(try model(source).entities.first)
        return Dictionary(uniqueKeysWithValues: entity.attributes.compactMap { attribute in
            (attribute.defaultValueString ?? attribute.defaultValueExpression).map { (attribute.name, $0) }
        })
    }

    @Test func everyIntegerLiteralFormIsReadAsItsDecimalValue() throws {
        #expect(try defaults(of: """
            @Model class Item {
                var octal: Int = 0o77
                var binary: UInt8 = 0b1111_1111
                var hex: Int16 = 0x7FFF
                var negativeHex: Int = -0x80
                var grouped: Int64 = 1_000_000
                var zero: Int = -0
                var leadingZeros: Int32 = 007
                var hexOnDouble: Double = 0xFF
                var largest: UInt64 = 18446744073709551615
                var hugeHex: Double = 0xFFFF_FFFF_FFFF_FFFF_FF
            }
            """) == [
            "octal": "63", "binary": "255", "hex": "32767", "negativeHex": "-128", "grouped": "1000000",
            "zero": "0", "leadingZeros": "7", "hexOnDouble": "255", "largest": "18446744073709551615",
            "hugeHex": "4722366482869645213695",
        ])
    }

    @Test func everyFloatingPointLiteralFormIsReadAsItsValue() throws {
        #expect(try defaults(of: """
            @Model class Item {
                var plain: Double = 0.5
                var grouped: Double = 1_000.25
                var exponent: Float = 1e3
                var negativeExponent: Double = -2.5e-3
                var hexFloat: Double = 0x1p-2
                var hexFraction: Double = 0x1.8p1
                var negativeHexFloat: Float = -0x1p3
                var huge: Double = 1e400
            }
            """) == [
            "plain": "0.5", "grouped": "1000.25", "exponent": "1e3", "negativeExponent": "-2.5e-3",
            "hexFloat": "0.25", "hexFraction": "3.0", "negativeHexFloat": "-8.0", "huge": "1e400",
        ])
    }

    @Test func validLiteralsOfEveryFormGiveNoFinding() throws {
        let model = try model("""
            @Model class Item {
                var d: Int = 0o77
                var e: UInt8 = 0b1111_1111
                var f: Int8 = -0x80
                var g: Int16 = -32768
                var u64: UInt64 = 18446744073709551615
                var u: UInt = 0xFFFF_FFFF_FFFF_FFFF
                var i64: Int64 = -9223372036854775808
                var ratio: Double = 0x1p-2
                var weight: Float = 3.4028234e38
                var price: Decimal = 1e3
            }
            """)
        let findings = LintEngine().lint(model).filter { $0.ruleID == "default_value_invalid" }
        #expect(findings.isEmpty, "\(findings.map(\.message))")
    }

    /// Out of the Swift type's range does not compile: an error, said in Swift's terms (no
    /// "read as 0", no "truncated", which describe a Core Data default string).
    @Test func literalsOutsideTheSwiftTypeAreReportedInSwiftTerms() throws {
        let model = try model("""
            @Model class Item {
                var small: Int16 = 40000
                var tiny: Int8 = 0x80
                var byte: UInt8 = -1
                var beyond: UInt64 = 0x1_0000_0000_0000_0000
                var infinite: Double = 1e400
                var floatOverflow: Float = 1e39
            }
            """)
        let findings = LintEngine().lint(model).filter { $0.ruleID == "default_value_invalid" }
        #expect(findings.map(\.message) == [
            "'Item.small' has initial value 40000, outside Int16's range -32768...32767, so it does not compile "
                + "(the integer literal overflows); write a value Int16 can hold",
            "'Item.tiny' has initial value 128, outside Int8's range -128...127, so it does not compile "
                + "(the integer literal overflows); write a value Int8 can hold",
            "'Item.byte' has initial value -1, outside UInt8's range 0...255, so it does not compile "
                + "(the integer literal overflows); write a value UInt8 can hold",
            "'Item.beyond' has initial value 18446744073709551616, outside UInt64's range 0...18446744073709551615, "
                + "so it does not compile (the integer literal overflows); write a value UInt64 can hold",
            "'Item.infinite' has initial value 1e400, which overflows Double to infinity (Swift warns and stores "
                + "infinity); write a value Double can hold",
            "'Item.floatOverflow' has initial value 1e39, which overflows Float to infinity (Swift warns and stores "
                + "infinity); write a value Float can hold",
        ])
        #expect(findings.map(\.severity) == [.error, .error, .error, .error, .warning, .warning])
    }

    /// `UInt64.max` is valid Swift: `default_value_invalid` stays silent (it used to give the
    /// range of Int64), and `unsigned_integer_attribute` is the rule that speaks about storing it.
    @Test func theLargestUInt64IsLeftToTheUnsignedRule() throws {
        let model = try model("@Model class Item { var u64: UInt64 = 18446744073709551615 }")
        #expect(LintEngine().lint(model).map(\.ruleID) == ["unsigned_integer_attribute"])
    }

    @Test func initialValuesThatAreNotLiteralsAreKeptAsCodeAndNotChecked() throws {
        let values = try defaults(of: """
            @Model class Item {
                var computed: Int = 1 << 4
                var constant: Double = .pi
                var sum: Int16 = 30000 + 30000
            }
            """)
        #expect(values == ["computed": "1 << 4", "constant": ".pi", "sum": "30000 + 30000"])
        let model = try model("@Model class Item { var sum: Int16 = 30000 + 30000 }")
        #expect(LintEngine().lint(model).isEmpty)
    }
}

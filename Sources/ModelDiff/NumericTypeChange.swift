import DataModel

/// An attribute whose type changed from one of Core Data's binary numbers (Integer 16, 32 or
/// 64, Float, Double) to another: lightweight migration infers the mapping and converts the
/// stored values.
///
/// Apple's lists of inferable changes do not mention type changes, but apps ship them without a
/// mapping model and Core Data migrates their stores: WooCommerce's `Model 2 → Model 3`
/// (`OrderItem.quantity` Integer 16 → Integer 64) and `Model 87 → Model 88`
/// (`OrderGiftCard.amount` Integer 64 → Double), each migrated by an inferred mapping in the
/// app's CI-run migration tests, the latter asserting that a stored `1` reads back as `1.0`
/// (docs/migrations.md, "Observed migrations"). Decimal, String, Date, Binary, UUID, URI,
/// Boolean and Transformable stay out: no observation shows Core Data inferring them, and
/// WooCommerce ships mapping models for its Integer 64 → Decimal steps.
public struct NumericTypeChange: Hashable, Sendable {
    public var from: AttributeType
    public var to: AttributeType

    /// Nil unless both types are binary numbers and they differ.
    public init?(from: AttributeType?, to: AttributeType?) {
        guard let from, let to, from != to, Self.isBinaryNumber(from), Self.isBinaryNumber(to) else { return nil }
        self.from = from
        self.to = to
    }

    static func isBinaryNumber(_ type: AttributeType) -> Bool {
        type.isInteger || type == .float || type == .double
    }

    /// True when some stored values do not survive: a fraction dropped (Float or Double to an
    /// integer), an integer wider than the new type (Integer 64 → 32 or 16, Integer 32 → 16), or
    /// digits rounded away (Double → Float, Integer 32 or 64 → Float, whose 24-bit significand
    /// holds integers only up to 2^24). Integer 64 → Double rounds only beyond 2^53 and is the
    /// observed WooCommerce step, so it is not counted. What Core Data stores for a value the new
    /// type cannot hold is not documented (inferred: the fraction is truncated toward zero, as
    /// SQLite's CAST and NSNumber's integer accessors do).
    public var narrows: Bool {
        switch (from.integerRange, to.integerRange) {
        case let (source?, target?): return source.width > target.width
        case (nil, _?): return true
        case (_?, nil): return to == .float && from != .integer16
        case (nil, nil): return from == .double && to == .float
        }
    }

    /// What a narrowing change does to stored values, for messages.
    public var loss: String {
        to.integerRange != nil && from.integerRange == nil
            ? "stored values lose their fractions (truncated)"
            : "stored values the new type cannot hold are truncated"
    }
}

extension ClosedRange where Bound == Int64 {
    /// The number of values, as a Double (Int64's full range does not fit in an Int).
    fileprivate var width: Double { Double(upperBound) - Double(lowerBound) }
}

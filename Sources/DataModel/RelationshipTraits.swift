/// What rules ask of a relationship before anything else: its delete rule, cardinality,
/// optionality and whether it names an inverse.
///
/// `Model` keeps these for every relationship in arrays of plain values, so a rule can pass
/// over the tens of thousands of relationships it has nothing to say about without visiting
/// each one. On a large model every `Relationship` lives in its own heap block, and reading a
/// field of each misses the processor's cache nearly every time; the traits of one entity sit
/// side by side.
public struct RelationshipTraits: Hashable, Sendable {
    /// The delete rule; an unknown rule's spelling is on the relationship itself. (Holding no
    /// string keeps the traits a plain value, which rules copy many times over without counting
    /// references; docs/benchmarks.md, "Copies that counted references".)
    public var deletionRule: DeleteRule.Kind
    public var isToMany: Bool
    public var isOrdered: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    /// True when the file writes an `inverseName` (whether or not it resolves).
    public var hasInverseName: Bool
    /// `minCount`, or 0 when absent (as Core Data reads it).
    public var minimumCount: Int
    /// True when an `inverseEntity` is written that differs from the destination.
    public var namesOtherInverseEntity: Bool
    /// True when a count, as a value or as written, is anything but 0 or 1 (what Xcode writes
    /// for an ordinary relationship) or is not a whole number.
    public var hasUnusualCount: Bool
    /// True when the relationship has a `userInfo` entry (where `momlint:disable` is written).
    public var hasUserInfo: Bool

    public init(_ relationship: Relationship) {
        deletionRule = relationship.deletionRule.kind
        isToMany = relationship.isToMany
        isOrdered = relationship.isOrdered
        isOptional = relationship.isOptional
        isTransient = relationship.isTransient
        hasInverseName = relationship.inverseName != nil
        minimumCount = relationship.minCount ?? 0
        namesOtherInverseEntity = relationship.inverseEntityName.map { $0 != relationship.destinationEntityName } ?? false
        hasUnusualCount = Self.isUnusual(relationship.minCount) || Self.isUnusual(relationship.maxCount)
            || Self.isUnusual(relationship.minCountText) || Self.isUnusual(relationship.maxCountText)
        hasUserInfo = !relationship.userInfo.isEmpty
    }

    private static func isUnusual(_ count: Int?) -> Bool {
        guard let count else { return false }
        return count != 0 && count != 1
    }

    private static func isUnusual(_ text: String?) -> Bool {
        guard let text else { return false }
        guard let count = Int(text) else { return true }
        return isUnusual(count)
    }

    /// True when the relationship must hold at least one object at save (see
    /// `Relationship.isRequired`).
    public var isRequired: Bool { !isOptional || minimumCount > 0 }
}

/// What rules ask of a relationship before anything else: its delete rule, cardinality,
/// optionality and whether it names an inverse.
///
/// `Model` keeps these for every relationship in arrays of plain values, so a rule can pass
/// over the tens of thousands of relationships it has nothing to say about without visiting
/// each one. On a large model every `Relationship` lives in its own heap block, and reading a
/// field of each misses the processor's cache nearly every time; the traits of one entity sit
/// side by side.
public struct RelationshipTraits: Hashable, Sendable {
    public var deletionRule: DeleteRule
    public var isToMany: Bool
    public var isOptional: Bool
    public var isTransient: Bool
    /// True when the file writes an `inverseName` (whether or not it resolves).
    public var hasInverseName: Bool
    /// `minCount`, or 0 when absent (as Core Data reads it).
    public var minimumCount: Int

    public init(_ relationship: Relationship) {
        deletionRule = relationship.deletionRule
        isToMany = relationship.isToMany
        isOptional = relationship.isOptional
        isTransient = relationship.isTransient
        hasInverseName = relationship.inverseName != nil
        minimumCount = relationship.minCount ?? 0
    }

    /// True when the relationship must hold at least one object at save (see
    /// `Relationship.isRequired`).
    public var isRequired: Bool { !isOptional || minimumCount > 0 }
}

/// What a check asks of an entity before it looks at the entity itself, kept in the model's
/// tables (as `AttributeTraits` are for attributes): a check that needs only the entities with
/// userInfo, fetched properties, constraints or indexes reads this table, in order, instead of
/// visiting the heap block of every entity of a large model.
public struct EntityTraits: Hashable, Sendable {
    public var hasUserInfo: Bool
    public var hasFetchedProperties: Bool
    /// True when the entity declares a uniqueness constraint, a fetch index or a compound index.
    public var hasConstraintsOrIndexes: Bool

    public init(_ entity: Entity) {
        hasUserInfo = !entity.userInfo.isEmpty
        hasFetchedProperties = !entity.fetchedProperties.isEmpty
        hasConstraintsOrIndexes = !entity.uniquenessConstraints.isEmpty || !entity.fetchIndexes.isEmpty
            || !entity.compoundIndexes.isEmpty
    }
}

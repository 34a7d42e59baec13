import DataModel

/// A relationship together with the entity that declares it, so a message can name it as
/// `'Entity.relationship'` even when it is reached through a sub-entity.
struct DeclaredRelationship: Sendable {
    var entity: Entity
    var relationship: Relationship

    var qualifiedName: String { "\(entity.name).\(relationship.name)" }

    /// Identifies the declaration; entity values are large, so hash names, not entities.
    var key: Key { Key(entityName: entity.name, relationshipName: relationship.name, location: relationship.location) }

    struct Key: Hashable, Sendable {
        var entityName: String
        var relationshipName: String
        var location: SourceLocation
    }
}

extension Model {
    /// Every relationship the model declares, entity by entity in document order.
    var declaredRelationships: [DeclaredRelationship] {
        entities.flatMap { entity in entity.relationships.map { DeclaredRelationship(entity: entity, relationship: $0) } }
    }

    /// The entity that declares property `name` for `entity`: the entity itself, or the nearest
    /// ancestor that does.
    func declaringEntity(ofProperty name: String, for entity: Entity) -> Entity? {
        if ownProperty(named: name, in: entity) != nil { return entity }
        return ancestors(of: entity).first { ownProperty(named: name, in: $0) != nil }
    }

    /// The relationship that `relationship`'s `inverseName` resolves to, looked up on its inverse
    /// entity (or destination) and that entity's ancestors, with the entity declaring it. Nil when
    /// there is no inverse name, the entity is unknown, or the name is not a relationship.
    func resolvedInverse(of relationship: Relationship) -> DeclaredRelationship? {
        guard let inverseName = relationship.inverseName,
              let owner = (relationship.inverseEntityName ?? relationship.destinationEntityName).flatMap(entity(named:)),
              let declaring = declaringEntity(ofProperty: inverseName, for: owner),
              let inverse = ownProperty(named: inverseName, in: declaring)?.asRelationship
        else { return nil }
        return DeclaredRelationship(entity: declaring, relationship: inverse)
    }

    /// True when `entityName` is `ancestorName` or inherits from it. Unknown names are kinds of
    /// nothing but themselves.
    func isKind(_ entityName: String, of ancestorName: String) -> Bool {
        if entityName == ancestorName { return true }
        guard let entity = entity(named: entityName) else { return false }
        return ancestors(of: entity).contains { $0.name == ancestorName }
    }

    /// True when one of the two entities is, or inherits from, the other.
    func areInSameLine(_ first: String, _ second: String) -> Bool {
        isKind(first, of: second) || isKind(second, of: first)
    }
}

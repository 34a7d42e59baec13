import DataModel

/// A relationship together with the entity that declares it, so a message can name it as
/// `'Entity.relationship'` even when it is reached through a sub-entity.
struct DeclaredRelationship: Sendable {
    var entity: Entity
    var relationship: Relationship
    /// Where the model declares it; nil only for a relationship that is not the model's own.
    var position: RelationshipPosition?

    var qualifiedName: String { "\(entity.name).\(relationship.name)" }

    /// A violation at the relationship's element.
    func violation(_ message: String, suggestion: String? = nil, severity: Severity? = nil) -> Violation {
        Violation(message: message, location: relationship.location, entityName: entity.name,
                  propertyName: relationship.name, suggestion: suggestion, severity: severity)
    }

    /// Identifies the declaration: its position, cheap to hash, when the model declares it.
    var key: Key {
        if let position { return .position(position) }
        return .name(entityName: entity.name, relationshipName: relationship.name, location: relationship.location)
    }

    enum Key: Hashable, Sendable {
        case position(RelationshipPosition)
        case name(entityName: String, relationshipName: String, location: SourceLocation)
    }
}

extension DeclaredRelationship {
    /// The relationship at `position` in `model`, with the entity declaring it.
    init(_ position: RelationshipPosition, in model: Model) {
        self.init(entity: model.entities[position.entityIndex], relationship: model.relationship(at: position),
                  position: position)
    }
}

extension LintedModel {
    /// The relationships the model's entities declare whose traits, and their inverse's when it
    /// resolves, pass `test`, in document order. They are chosen from the model's trait tables,
    /// so a rule interested in a few relationships (Deny, say) never visits the others.
    func declaredRelationships(
        where test: (_ traits: RelationshipTraits, _ inverse: RelationshipTraits?) -> Bool
    ) -> [DeclaredRelationship] {
        model.relationshipPositions(where: test).map { DeclaredRelationship($0, in: model) }
    }
}

extension Model {
    /// The relationship that `relationship`'s `inverseName` resolves to, looked up on its inverse
    /// entity (or destination) and that entity's ancestors, with the entity declaring it. Nil when
    /// there is no inverse name, the entity is unknown, or the name is not a relationship.
    func resolvedInverse(of relationship: Relationship) -> DeclaredRelationship? {
        if let position = position(of: relationship) {
            // The model resolved every inverse of its own relationships when it was built.
            return inversePosition(of: position).map { DeclaredRelationship($0, in: self) }
        }
        guard let inverseName = relationship.inverseName,
              let owner = (relationship.inverseEntityName ?? relationship.destinationEntityName).flatMap(entity(named:)),
              let declaring = declaringEntity(ofProperty: inverseName, for: owner),
              let inverse = ownProperty(named: inverseName, in: declaring)?.asRelationship
        else { return nil }
        return DeclaredRelationship(entity: declaring, relationship: inverse, position: position(of: inverse))
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

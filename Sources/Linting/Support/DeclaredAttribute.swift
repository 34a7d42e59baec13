import DataModel

/// An attribute with the name of the entity or composite that declares it.
struct DeclaredAttribute: Sendable {
    var ownerName: String
    var attribute: Attribute

    var qualifiedName: String { "\(ownerName).\(attribute.name)" }

    func violation(_ message: String, suggestion: String? = nil) -> Violation {
        Violation(message: message, location: attribute.location, entityName: ownerName,
                  propertyName: attribute.name, suggestion: suggestion)
    }
}

extension Model {
    /// Every attribute of every entity, then of every composite, in document order.
    var declaredAttributes: [DeclaredAttribute] {
        entities.flatMap { entity in entity.attributes.map { DeclaredAttribute(ownerName: entity.name, attribute: $0) } }
            + composites.flatMap { composite in composite.attributes.map { DeclaredAttribute(ownerName: composite.name, attribute: $0) } }
    }
}

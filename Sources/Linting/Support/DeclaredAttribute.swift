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

extension LintedModel {
    /// The attributes of `declaredAttributes` whose traits pass `test`, in the same order. The
    /// entities' attributes are chosen from the model's trait table without visiting the others;
    /// composites' (few) are tested one by one.
    func declaredAttributes(where test: (AttributeTraits) -> Bool) -> [DeclaredAttribute] {
        let entities = model.entities
        var declared = model.attributePositions(where: test).map { position in
            let entity = entities[position.entityIndex]
            return DeclaredAttribute(ownerName: entity.name, attribute: entity.attributes[position.attributeIndex])
        }
        for composite in model.composites {
            for attribute in composite.attributes where test(AttributeTraits(attribute)) {
                declared.append(DeclaredAttribute(ownerName: composite.name, attribute: attribute))
            }
        }
        return declared
    }
}

extension Model {
    /// Every attribute of every entity, then of every composite, in document order.
    var declaredAttributes: [DeclaredAttribute] {
        entities.flatMap { entity in entity.attributes.map { DeclaredAttribute(ownerName: entity.name, attribute: $0) } }
            + composites.flatMap { composite in composite.attributes.map { DeclaredAttribute(ownerName: composite.name, attribute: $0) } }
    }
}

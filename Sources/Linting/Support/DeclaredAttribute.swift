import DataModel

/// An attribute with the name of the entity or composite that declares it.
struct DeclaredAttribute: Sendable {
    var ownerName: String
    var attribute: Attribute

    var qualifiedName: String { "\(ownerName).\(attribute.name)" }

    /// A violation at the attribute's element.
    func violation(_ message: String, suggestion: String? = nil, severity: Severity? = nil) -> Violation {
        Violation(message: message, location: attribute.location, entityName: ownerName,
                  propertyName: attribute.name, suggestion: suggestion, severity: severity)
    }
}

extension DeclaredAttribute {
    /// The attribute at `position` of the model's entities.
    init(_ position: AttributePosition, in model: Model) {
        self.init(ownerName: model.nameOfEntity(at: position.entityIndex), attribute: model.attribute(at: position))
    }
}

extension LintedModel {
    /// The attributes of every entity, then of every composite, whose traits pass `test`, in
    /// document order. The entities' attributes are chosen from the model's trait table without
    /// visiting the others; composites' (few) are tested one by one.
    func declaredAttributes(where test: (AttributeTraits) -> Bool) -> [DeclaredAttribute] {
        var declared = model.attributePositions(where: test).map { DeclaredAttribute($0, in: model) }
        for composite in model.composites {
            for attribute in composite.attributes where test(AttributeTraits(attribute)) {
                declared.append(DeclaredAttribute(ownerName: composite.name, attribute: attribute))
            }
        }
        return declared
    }
}

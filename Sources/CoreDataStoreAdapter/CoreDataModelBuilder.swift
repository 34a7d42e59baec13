// UNVERIFIED on Linux; see CoreDataStoreAdapter.swift.
#if canImport(CoreData)
import CoreData
import DataModel
import Foundation

/// Builds an `NSManagedObjectModel` in code from momlint's parsed model, so scenarios need no
/// `momc`: entities and inheritance, attributes with defaults and validation limits,
/// relationships with counts, delete rules and inverses, and uniqueness constraints.
struct CoreDataModelBuilder {
    let model: Model

    init(_ model: Model) {
        self.model = model
    }

    func build() throws -> NSManagedObjectModel {
        var descriptions: [String: NSEntityDescription] = [:]
        var relationships: [String: [String: NSRelationshipDescription]] = [:]
        for entity in model.entities {
            let description = NSEntityDescription()
            description.name = entity.name
            description.managedObjectClassName = NSStringFromClass(NSManagedObject.self)
            description.isAbstract = entity.isAbstract
            var properties: [NSPropertyDescription] = entity.attributes.map(attribute)
            for relationship in entity.relationships {
                let built = NSRelationshipDescription()
                built.name = relationship.name
                built.isOptional = relationship.isOptional
                built.isOrdered = relationship.isOrdered
                built.minCount = relationship.minCount ?? 0
                built.maxCount = relationship.isToMany ? (relationship.maxCount ?? 0) : 1
                built.deleteRule = Self.deleteRule(relationship.deletionRule)
                relationships[entity.name, default: [:]][relationship.name] = built
                properties.append(built)
            }
            description.properties = properties
            description.uniquenessConstraints = entity.uniquenessConstraints.map { $0.propertyNames as [Any] }
            descriptions[entity.name] = description
        }
        // Destinations, inverses and sub-entities need every description to exist first.
        for entity in model.entities {
            for relationship in entity.relationships {
                let built = relationships[entity.name]![relationship.name]!
                built.destinationEntity = relationship.destinationEntityName.flatMap { descriptions[$0] }
                if let inverse = relationship.inverseName,
                   let owner = relationship.inverseEntityName ?? relationship.destinationEntityName {
                    built.inverseRelationship = relationships[owner]?[inverse]
                }
            }
            descriptions[entity.name]!.subentities = model.subentities(of: entity).compactMap { descriptions[$0.name] }
        }
        let managedObjectModel = NSManagedObjectModel()
        managedObjectModel.entities = model.entities.compactMap { descriptions[$0.name] }
        return managedObjectModel
    }

    private func attribute(_ attribute: Attribute) -> NSAttributeDescription {
        let built = NSAttributeDescription()
        built.name = attribute.name
        built.isOptional = attribute.isOptional
        built.isTransient = attribute.isTransient
        built.attributeType = Self.attributeType(attribute.attributeType)
        if let text = attribute.defaultValueString {
            built.defaultValue = Self.value(text, type: built.attributeType)
        }
        // The predicates momc writes for the model editor's limits.
        var predicates: [NSPredicate] = []
        switch built.attributeType {
        case .stringAttributeType:
            if let minimum = attribute.minValueString.flatMap(Int.init) { predicates.append(NSPredicate(format: "length >= %@", NSNumber(value: minimum))) }
            if let maximum = attribute.maxValueString.flatMap(Int.init) { predicates.append(NSPredicate(format: "length <= %@", NSNumber(value: maximum))) }
            if let pattern = attribute.regularExpressionString { predicates.append(NSPredicate(format: "SELF MATCHES %@", pattern)) }
        case .dateAttributeType:
            if let minimum = attribute.minDateTimeInterval.flatMap(Double.init) {
                predicates.append(NSPredicate(format: "SELF >= %@", Date(timeIntervalSinceReferenceDate: minimum) as NSDate))
            }
            if let maximum = attribute.maxDateTimeInterval.flatMap(Double.init) {
                predicates.append(NSPredicate(format: "SELF <= %@", Date(timeIntervalSinceReferenceDate: maximum) as NSDate))
            }
        default:
            if let minimum = attribute.minValueString.flatMap(Double.init) { predicates.append(NSPredicate(format: "SELF >= %@", NSNumber(value: minimum))) }
            if let maximum = attribute.maxValueString.flatMap(Double.init) { predicates.append(NSPredicate(format: "SELF <= %@", NSNumber(value: maximum))) }
        }
        if !predicates.isEmpty {
            built.setValidationPredicates(predicates, withValidationWarnings: predicates.map { "\($0)" })
        }
        return built
    }

    static func attributeType(_ type: AttributeType?) -> NSAttributeType {
        switch type {
        case .integer16?: .integer16AttributeType
        case .integer32?: .integer32AttributeType
        case .integer64?: .integer64AttributeType
        case .decimal?: .decimalAttributeType
        case .double?: .doubleAttributeType
        case .float?: .floatAttributeType
        case .string?: .stringAttributeType
        case .boolean?: .booleanAttributeType
        case .date?: .dateAttributeType
        case .binary?: .binaryDataAttributeType
        case .uuid?: .UUIDAttributeType
        case .uri?: .URIAttributeType
        case .transformable?: .transformableAttributeType
        case .objectID?: .objectIDAttributeType
        default: .undefinedAttributeType
        }
    }

    static func value(_ text: String, type: NSAttributeType) -> Any? {
        switch type {
        case .integer16AttributeType, .integer32AttributeType, .integer64AttributeType:
            Int64(text).map { NSNumber(value: $0) }
        case .doubleAttributeType, .floatAttributeType, .decimalAttributeType:
            Double(text).map { NSNumber(value: $0) }
        case .booleanAttributeType: NSNumber(value: text == "YES")
        case .stringAttributeType: text
        default: nil
        }
    }

    static func deleteRule(_ rule: DeleteRule) -> NSDeleteRule {
        switch rule {
        case .noAction: .noActionDeleteRule
        case .cascade: .cascadeDeleteRule
        case .deny: .denyDeleteRule
        case .nullify, .unknown: .nullifyDeleteRule
        }
    }
}
#endif

import DataModel
import Linting

/// An `@NSManaged` property whose optionality contradicts what the model lets the value be.
public struct OptionalityMismatchRule: SourceRule {
    public static let description = RuleDescription(
        id: "optionality_mismatch",
        name: "Optionality Mismatch",
        summary: """
            An @NSManaged property is non-optional although its attribute or to-one relationship can \
            be nil, or optional although its attribute always has a value.
            """,
        rationale: """
            An optional attribute with no default value, and an optional to-one relationship, read nil \
            until set. Swift trusts a non-optional @NSManaged declaration without checking it, so \
            reading nil through one is undefined behaviour, typically a crash far from its cause. The \
            reverse, an optional property over a required attribute that has a default value, hides \
            that the value is always present and invites nil, which fails validation at save with \
            NSValidationMissingMandatoryPropertyError (1570). Scalar types (Int16, Double, Bool, …) \
            cannot be optional with @NSManaged and read 0 or false for nil, and to-many relationships \
            read an empty set, so neither is checked. \

            Default severity: warning. A nil read through a non-optional property fails only when the \
            value is actually missing, and an optional property over a required attribute fails only when \
            code stores nil; neither is certain from the declarations alone.
            """,
        category: .types,
        defaultSeverity: .warning)

    public static let triggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="createdAt" attributeType="Date" defaultDateTimeInterval="0"/>
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                </entity>
                <entity name="Person" representedClassName="Person">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {
                    ↓@NSManaged var title: String
                    ↓@NSManaged var createdAt: Date?
                    ↓@NSManaged var owner: Person
                }

                final class Person: NSManagedObject {
                    @NSManaged var items: NSSet?
                }
                """),
    ]

    public static let nonTriggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="subtitle" optional="YES" attributeType="String" defaultValueString=""/>
                    <attribute name="name" attributeType="String"/>
                    <attribute name="count" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                    <relationship name="owner" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                </entity>
                <entity name="Person" representedClassName="Person">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {
                    @NSManaged var title: String?
                    @NSManaged var subtitle: String
                    @NSManaged var name: String?
                    @NSManaged var count: Int16
                    @NSManaged var owner: Person?
                }

                final class Person: NSManagedObject {
                    @NSManaged var items: NSSet
                }
                """),
    ]

    public init() {}

    public func violations(in pairing: ModelCodePairing) -> [Violation] {
        var violations: [Violation] = []
        for match in pairing.matches {
            for property in match.properties where property.isManaged && property.isWellFormed {
                guard let type = property.type, !type.isScalar,
                      let modelProperty = pairing.entityProperty(for: property, of: match.entity),
                      let violation = Self.violation(for: property, type: type, modelProperty: modelProperty,
                                                     entity: match.entity, pairing: pairing)
                else { continue }
                violations.append(violation)
            }
        }
        return violations
    }

    private static func violation(for property: ManagedProperty, type: SwiftTypeReference, modelProperty: Property,
                                  entity: Entity, pairing: ModelCodePairing) -> Violation? {
        let owner = pairing.declaringEntity(of: modelProperty.name, from: entity)
        let quotedModelName = "'\(owner.name).\(modelProperty.name)'"
        let message: String
        let fix: String
        switch modelProperty {
        case .attribute(let attribute) where !attribute.isDerived:
            if type.optionality == .nonOptional, attribute.isOptional, !attribute.hasDefaultValue {
                fix = "declare it '\(type.spelling)?', or give the attribute a default value"
                message = "\(property.quotedName) is declared '\(type.spelling)', but attribute \(quotedModelName) "
                    + "is optional with no default value, so it can be nil; \(fix)"
            } else if type.optionality == .optional, !attribute.isOptional, attribute.hasDefaultValue {
                fix = "declare it '\(type.spelling.hasSuffix("?") ? String(type.spelling.dropLast()) : type.baseName)'"
                message = "\(property.quotedName) is declared '\(type.spelling)', but attribute \(quotedModelName) "
                    + "is required and has a default value, so it is never nil; \(fix)"
            } else {
                return nil
            }
        case .relationship(let relationship) where !relationship.isToMany:
            guard type.optionality == .nonOptional, relationship.isOptional else { return nil }
            fix = "declare it '\(type.spelling)?'"
            message = "\(property.quotedName) is declared '\(type.spelling)', but relationship \(quotedModelName) "
                + "is optional, so it can be nil; \(fix)"
        default:
            return nil
        }
        return Violation(message: message, location: property.location, entityName: owner.name,
                         propertyName: modelProperty.name, suggestion: fix)
    }
}

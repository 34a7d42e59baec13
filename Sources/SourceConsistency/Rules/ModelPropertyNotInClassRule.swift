import DataModel
import Linting

/// An attribute or relationship of a Manual/None entity that its hand-written class does not declare.
public struct ModelPropertyNotInClassRule: SourceRule {
    public static let description = RuleDescription(
        id: "model_property_not_in_class",
        name: "Model Property Not in Class",
        summary: "An entity with codegen Manual/None has an attribute or relationship that its hand-written class does not declare.",
        rationale: """
            With Manual/None code generation the class is the only Swift view of the entity, and Xcode \
            never updates it. A property added to the model but not to the class is stored, migrated \
            and validated, yet code can reach it only through value(forKey:) with a string that the \
            compiler cannot check; more often it means the class fell behind the model. The rule looks \
            for any instance property of that name (or @objc name) in the class, its extensions and \
            its superclasses, so custom accessors count. It stays silent when the class declaration, or \
            a superclass between it and NSManagedObject, is not in the sources, because the property \
            may be declared there. Fetched properties are not required. \

            Default severity: warning. Nothing fails: the value is stored and reachable through \
            key-value coding; the class has only fallen behind the model.
            """,
        category: .structure,
        defaultSeverity: .warning)

    public static let triggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="createdAt" attributeType="Date" defaultDateTimeInterval="0"/>
                    <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="items" inverseEntity="Tag"/>
                </entity>
                <entity name="Tag" representedClassName="Tag" codeGenerationType="class">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="tags" inverseEntity="Item"/>
                </entity>
                """#,
            source: """
                import CoreData

                ↓final class Item: NSManagedObject {
                    @NSManaged var title: String?
                }
                """),
    ]

    public static let nonTriggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="summary" optional="YES" attributeType="String"/>
                    <attribute name="sort_key" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                    <fetchedProperty name="recentSiblings" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Item" predicateString="title == $FETCH_SOURCE.title"/>
                    </fetchedProperty>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {
                    @NSManaged var title: String?
                    @NSManaged @objc(sort_key) var sortKey: Int64
                }

                extension Item {
                    // A custom accessor still gives 'summary' its home in the class.
                    var summary: String? {
                        get { primitiveValue(forKey: "summary") as? String }
                        set { setPrimitiveValue(newValue, forKey: "summary") }
                    }
                }
                """),
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """#,
            source: """
                import CoreData
                import SharedModels

                // The superclass comes from another module, which may declare 'title'.
                final class Item: SharedModels.TimestampedObject {
                    @NSManaged var rating: Int16
                }
                """),
    ]

    public init() {}

    public func violations(in pairing: ModelCodePairing) -> [Violation] {
        var violations: [Violation] = []
        for match in pairing.matches where match.entity.codeGeneration == .manual && match.knowsAllProperties {
            guard let location = match.managedClass.declaration else { continue }
            let declared = Set(match.properties.flatMap { [$0.key, $0.name] })
            let entity = match.entity
            let className = match.managedClass.name
            for attribute in pairing.model.allAttributes(of: entity) where !declared.contains(attribute.name) {
                let declaration = ExpectedSwiftType(for: attribute).map {
                    " (e.g. '@NSManaged var \(attribute.name): \($0.suggestedSpelling(for: attribute))')"
                } ?? ""
                violations.append(violation(kind: "attribute", name: attribute.name, entity: entity,
                                            className: className, declaration: declaration, location: location,
                                            pairing: pairing))
            }
            for relationship in pairing.model.allRelationships(of: entity)
            where !declared.contains(relationship.name) {
                let declaration = " (e.g. '@NSManaged var \(relationship.name): "
                    + "\(Self.swiftType(of: relationship, in: pairing.model))')"
                violations.append(violation(kind: "relationship", name: relationship.name, entity: entity,
                                            className: className, declaration: declaration, location: location,
                                            pairing: pairing))
            }
        }
        return violations
    }

    private func violation(kind: String, name: String, entity: Entity, className: String, declaration: String,
                           location: SourceLocation, pairing: ModelCodePairing) -> Violation {
        let owner = pairing.declaringEntity(of: name, from: entity)
        return Violation(
            message: "class '\(className)' declares no property for \(kind) '\(owner.name).\(name)'; "
                + "declare it\(declaration), or remove it from the model",
            location: location, entityName: entity.name, propertyName: name,
            suggestion: "declare '\(name)' in class '\(className)'")
    }

    /// The type Xcode's code generation gives a relationship: the destination's class for a
    /// to-one, `NSSet` or `NSOrderedSet` for a to-many; optional either way.
    static func swiftType(of relationship: Relationship, in model: Model) -> String {
        if relationship.isToMany { return relationship.isOrdered ? "NSOrderedSet?" : "NSSet?" }
        let destinationClass = model.destination(of: relationship).flatMap {
            ModelCodePairing.className(representedBy: $0.representedClassName)
        }
        return (destinationClass ?? "NSManagedObject") + "?"
    }
}

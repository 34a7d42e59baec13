import DataModel
import Linting

/// An `@NSManaged` property of a Manual/None class that its entity does not have.
public struct ManagedPropertyNotInModelRule: SourceRule {
    public static let description = RuleDescription(
        id: "managed_property_not_in_model",
        name: "Managed Property Not in Model",
        summary: "A hand-written class (codegen Manual/None) declares an @NSManaged property that its entity does not have.",
        rationale: """
            @NSManaged promises that Core Data supplies the property's storage and accessors at run \
            time (https://developer.apple.com/documentation/coredata/nsmanagedobject), and it can only \
            do so for a property of the entity. For any other name there is no accessor: the first read \
            or write raises "unrecognized selector sent to instance", and key-value coding raises "not key \
            value coding-compliant for the key". It usually means an attribute was renamed or removed in \
            the model and the hand-written class was not updated; Xcode regenerates classes only for \
            Class Definition and Category/Extension code generation, never for Manual/None. \

            Default severity: error. The first use of the property fails at run time (an unrecognized \
            selector or a key-value coding exception).
            """,
        category: .structure,
        defaultSeverity: .error)

    public static let triggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="color" optional="YES" attributeType="String"/>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {
                    @NSManaged var color: String?
                    ↓@NSManaged var colour: String?
                }
                """),
        SourceRuleExample(
            model: #"""
                <entity name="Trackable" representedClassName="Trackable" isAbstract="YES">
                    <attribute name="createdAt" optional="YES" attributeType="Date"/>
                </entity>
                <entity name="Item" representedClassName="MyApp.Item" parentEntity="Trackable"/>
                """#,
            source: """
                import CoreData

                class Trackable: NSManagedObject {
                    @NSManaged var createdAt: Date?
                }

                final class Item: Trackable {}

                extension Item {
                    ↓@NSManaged var updatedAt: Date?
                }
                """),
    ]

    public static let nonTriggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Trackable" representedClassName="Trackable" isAbstract="YES">
                    <attribute name="createdAt" optional="YES" attributeType="Date"/>
                </entity>
                <entity name="Item" representedClassName="Item" parentEntity="Trackable">
                    <attribute name="item_count" attributeType="Integer 64" defaultValueString="0" usesScalarValueType="YES"/>
                </entity>
                """#,
            source: """
                import CoreData

                class Trackable: NSManagedObject {
                    @NSManaged var createdAt: Date?
                }

                final class Item: Trackable {
                    @NSManaged @objc(item_count) var itemCount: Int64
                    var isRecent: Bool { createdAt.map { $0 > .now.addingTimeInterval(-86_400) } ?? false }
                }
                """),
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item" codeGenerationType="category">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """#,
            source: """
                import CoreData

                // Category/Extension code generation writes the properties; this class is not
                // the model's to check for extra ones.
                final class Item: NSManagedObject {
                    @NSManaged var cachedSummary: String?
                }
                """),
    ]

    public init() {}

    public func violations(in pairing: ModelCodePairing) -> [Violation] {
        var violations: [Violation] = []
        for match in pairing.matches where match.entity.codeGeneration == .manual {
            let entity = match.entity
            for property in match.properties where property.isManaged {
                guard pairing.entityProperty(for: property, of: entity) == nil else { continue }
                let names = pairing.model.allAttributes(of: entity).map(\.name)
                    + pairing.model.allRelationships(of: entity).map(\.name)
                var message = "\(property.quotedName) is @NSManaged, but entity '\(entity.name)' has no "
                    + "property '\(property.key)'; add it to the model, or remove the declaration"
                if let near = Self.nearestName(to: property.key, in: names) {
                    message += " (did you mean '\(near)'?)"
                }
                violations.append(Violation(
                    message: message, location: property.location, entityName: entity.name,
                    propertyName: property.key,
                    suggestion: "add '\(property.key)' to entity '\(entity.name)' or remove the declaration"))
            }
        }
        return violations
    }

    /// A model name that differs from `name` only in case or by at most two edits, the
    /// usual traces of a rename or a typo; nil when none is that close.
    static func nearestName(to name: String, in names: [String]) -> String? {
        if let sameLetters = names.first(where: { $0.lowercased() == name.lowercased() }) { return sameLetters }
        let scored = names.map { ($0, NearestName.editDistance(name.lowercased(), $0.lowercased())) }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= min(2, name.count / 3) else { return nil }
        return best.0
    }
}

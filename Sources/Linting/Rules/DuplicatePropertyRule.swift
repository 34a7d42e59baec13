import DataModel

/// A property name declared twice in an entity, or redeclared by a sub-entity.
public struct DuplicatePropertyRule: Rule {
    public static let description = RuleDescription(
        id: "duplicate_property",
        name: "Duplicate Property",
        summary: "A property name is declared twice in an entity, or redeclared by a sub-entity.",
        rationale: """
            An entity's properties are a dictionary keyed by name (`propertiesByName`), and a \
            sub-entity inherits every property of its parent; Core Data has no overriding of \
            properties. A second declaration of a name is rejected by Xcode's model compiler, or one \
            of the two silently wins, and the sub-entity's rows share the hierarchy's single table, so \
            the two declarations fight over one column.

            Default severity: error. The model compiler rejects a name declared twice in one \
            hierarchy, so the model does not build.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsentitydescription/propertiesbyname",
            "https://developer.apple.com/documentation/coredata/nsentitydescription/subentities",
            "docs/coredata-semantics.md §7 (one table per hierarchy)",
        ],
        howToFix: """
            Remove the second declaration, or rename it. In a sub-entity, delete the redeclared property \
            and use the inherited one.
            """,
        category: .names,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    ↓<attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Item" isAbstract="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Book" parentEntity="Item">
                    ↓<attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Item" isAbstract="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Book" parentEntity="Item">
                    <attribute name="isbn" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Film" parentEntity="Item">
                    <attribute name="isbn" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        model.properties { $0.isRepeated || $0.nearestAncestorDeclaringName != nil }.map { found in
            let entity = found.owner.entity, property = found.property
            if found.isRepeated {
                return Violation(
                    message: "'\(entity.name).\(property.name)' is declared more than once in '\(entity.name)'; "
                        + "remove or rename the second declaration",
                    location: property.location, entityName: entity.name, propertyName: property.name)
            }
            let ancestor = found.nearestAncestorDeclaringName!.entity
            return Violation(
                message: "'\(entity.name).\(property.name)' redeclares '\(ancestor.name).\(property.name)', "
                    + "which '\(entity.name)' already "
                    + "inherits; Core Data cannot override properties, so remove it from '\(entity.name)' or rename it",
                location: property.location, entityName: entity.name, propertyName: property.name)
        }
    }
}

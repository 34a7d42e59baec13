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
        var violations: [Violation] = []
        let entities = model.entities
        // The nearest ancestor declaring each name, found in one walk down each hierarchy.
        let inheritance = model.inheritedProperties
        for entityIndex in entities.indices {
            // Names from the model's tables: only a reported entity is read itself.
            let names = model.ownPropertyNames(ofEntityAt: entityIndex)
            // A dozen names are compared faster than hashed; a large entity gets a set.
            var seen: Set<String>? = names.count > 16 ? [] : nil
            for index in names.indices {
                let name = names[index]
                let length = name.utf8.count
                let isRepeated = if seen != nil {
                    !seen!.insert(name).inserted
                } else {
                    names[..<index].contains { $0.utf8.count == length && $0 == name }
                }
                let offset = index - names.startIndex
                let declarer = isRepeated ? nil : inheritance.nearestDeclarer(ofOwnPropertyAt: offset, inEntityAt: entityIndex)
                guard isRepeated || declarer != nil else { continue }
                let entity = entities[entityIndex]
                let property = entity.properties[offset]
                if isRepeated {
                    violations.append(Violation(
                        message: "'\(entity.name).\(property.name)' is declared more than once in '\(entity.name)'; "
                            + "remove or rename the second declaration",
                        location: property.location, entityName: entity.name, propertyName: property.name))
                } else if let ancestor = declarer.map({ entities[$0] }) {
                    violations.append(Violation(
                        message: "'\(entity.name).\(property.name)' redeclares '\(ancestor.name).\(property.name)', "
                            + "which '\(entity.name)' already "
                            + "inherits; Core Data cannot override properties, so remove it from '\(entity.name)' or rename it",
                        location: property.location, entityName: entity.name, propertyName: property.name))
                }
            }
        }
        return violations
    }
}

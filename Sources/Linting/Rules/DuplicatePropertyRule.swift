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
        // Each ancestor's names, made once however many sub-entities inherit them.
        var namesOfEntity = [NameList?](repeating: nil, count: entities.count)
        for entityIndex in entities.indices {
            // Names and ancestors from the model's tables: only a reported entity is read itself.
            let names = model.ownPropertyNames(ofEntityAt: entityIndex)
            // A dozen names are compared faster than hashed; a large entity gets a set.
            var seen: Set<String>? = names.count > 16 ? [] : nil
            let ancestors = model.model.ancestorIndexes(ofEntityAt: entityIndex)
            let inherited = ancestors.map { ancestor in
                if let made = namesOfEntity[ancestor] { return made }
                let made = NameList(model.ownPropertyNames(ofEntityAt: ancestor))
                namesOfEntity[ancestor] = made
                return made
            }
            for index in names.indices {
                let name = names[index]
                let length = name.utf8.count
                let isRepeated = if seen != nil {
                    !seen!.insert(name).inserted
                } else {
                    names[..<index].contains { $0.utf8.count == length && $0 == name }
                }
                // The nearest ancestor declaring the name, if any.
                let declarer = isRepeated ? nil : inherited.firstIndex { $0.contains(name) }
                guard isRepeated || declarer != nil else { continue }
                let entity = entities[entityIndex]
                let property = entity.properties[index - names.startIndex]
                if isRepeated {
                    violations.append(Violation(
                        message: "'\(entity.name).\(property.name)' is declared more than once in '\(entity.name)'; "
                            + "remove or rename the second declaration",
                        location: property.location, entityName: entity.name, propertyName: property.name))
                } else if let ancestor = declarer.map({ entities[ancestors[$0]] }) {
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

    /// An entity's own property names, scanned when few (comparing lengths first) and hashed
    /// when many.
    private struct NameList {
        let names: ArraySlice<String>
        let set: Set<String>?

        init(_ names: ArraySlice<String>) {
            self.names = names
            self.set = names.count > 16 ? Set(names) : nil
        }

        func contains(_ name: String) -> Bool {
            if let set { return set.contains(name) }
            let length = name.utf8.count
            return names.contains { $0.utf8.count == length && $0 == name }
        }
    }
}

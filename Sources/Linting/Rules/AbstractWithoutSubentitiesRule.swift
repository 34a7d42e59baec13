import DataModel

/// An abstract entity that no entity inherits from.
public struct AbstractWithoutSubentitiesRule: Rule {
    public static let description = RuleDescription(
        id: "abstract_without_subentities",
        name: "Abstract Without Sub-entities",
        summary: "An entity is abstract but has no sub-entities.",
        rationale: """
            An abstract entity cannot be instantiated; it exists to be inherited. With no sub-entity, no \
            object of it or below it can ever be created, so every relationship to it stays empty and \
            every fetch of it returns nothing. Usually a sub-entity was deleted or renamed, or the \
            abstract flag was set by mistake.

            Default severity: warning. The model builds and loads; an unused abstract entity is dead \
            weight, not a failure.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsentitydescription/isabstract",
        ],
        howToFix: "Clear the entity's Abstract flag, or add the sub-entities that inherit from it.",
        category: .structure,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                ↓<entity name="Shape" isAbstract="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Shape" isAbstract="YES">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Circle" parentEntity="Shape">
                    <attribute name="radius" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        model.entities.compactMap { entity in
            guard entity.isAbstract, model.subentities(of: entity).isEmpty else { return nil }
            return Violation(
                message: "'\(entity.name)' is abstract but no entity inherits from it, so no '\(entity.name)' can "
                    + "ever be created; clear its Abstract flag or add a sub-entity",
                location: entity.location, entityName: entity.name)
        }
    }
}

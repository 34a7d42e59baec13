import DataModel

/// An unknown parent entity, or an inheritance cycle.
public struct InvalidParentEntityRule: Rule {
    public static let description = RuleDescription(
        id: "invalid_parent_entity",
        name: "Invalid Parent Entity",
        summary: "An entity's parent is not in the model, or the parent chain loops back on itself.",
        rationale: """
            An entity's parent must be another entity of the same model, and inheritance must form a \
            tree: the sub-entity's rows live in its root's table and it inherits every property up the \
            chain. An unknown parent or a cycle has no root, so Xcode's model compiler refuses the \
            model. Reported once per cycle.

            Default severity: error. The model cannot be compiled: an entity without a reachable root \
            has no table and no inherited properties.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsentitydescription/superentity",
            "https://developer.apple.com/documentation/coredata/nsentitydescription/subentities",
        ],
        howToFix: "Set the parent to an existing entity, or remove it; break a cycle by making one entity of it a root.",
        category: .structure,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                ↓<entity name="Circle" parentEntity="Shape"/>
                """),
            RuleExample("""
                <entity name="Square" parentEntity="Rectangle"/>
                ↓<entity name="Rectangle" parentEntity="Square"/>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Shape" isAbstract="YES"/>
                <entity name="Rectangle" parentEntity="Shape"/>
                <entity name="Square" parentEntity="Rectangle"/>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        var violations = model.entities { $0.parentName != nil && $0.parent == nil }.map { found in
            let entity = found.entity
            return Violation(
                message: "'\(entity.name)' has parent entity '\(found.parentName ?? "")', which is not an entity of this model; "
                    + "set an existing parent or remove it",
                location: entity.location, entityName: entity.name)
        }
        for cycle in model.inheritanceCycles {
            // Start at the member whose name sorts first, so neither the location nor the text
            // depends on the order of the file.
            let start = cycle.indices.min { cycle[$0] < cycle[$1] }!
            let rotated = Array(cycle[start...] + cycle[..<start])
            guard let first = model.entity(named: rotated[0]) else { continue }
            violations.append(Violation(
                message: "the parent entities of '\(first.name)' form a cycle ("
                    + (rotated + [rotated[0]]).map { "'\($0)'" }.joined(separator: " → ") + "); make one of them a root entity",
                location: first.location, entityName: first.name))
        }
        return violations
    }
}

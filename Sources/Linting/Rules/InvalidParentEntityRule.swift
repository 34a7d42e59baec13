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
        var violations: [Violation] = []
        // Parents from the model's tables: only a reported entity is read itself.
        for entityIndex in model.entities.indices {
            guard let parentName = model.model.parentName(ofEntityAt: entityIndex),
                  model.model.parentIndex(ofEntityAt: entityIndex) == nil
            else { continue }
            let entity = model.entities[entityIndex]
            violations.append(Violation(
                message: "'\(entity.name)' has parent entity '\(parentName)', which is not an entity of this model; "
                    + "set an existing parent or remove it",
                location: entity.location, entityName: entity.name))
        }
        for cycle in Self.inheritanceCycles(in: model.model) {
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

    /// Each inheritance cycle once, as entity names in parent order. Every entity is walked once, so
    /// this stays linear even for a 10,000-deep hierarchy.
    static func inheritanceCycles(in model: Model) -> [[String]] {
        // Walked by entity index: hashing every name several times cost most of this rule on a
        // large model. Entities sharing a name are one node, the first declared, as
        // `entity(named:)` and `parent(of:)` find them.
        enum State: UInt8 { case unvisited, walking, done }
        let count = model.entities.count
        var state = [State](repeating: .unvisited, count: count)
        var cycles: [[String]] = []
        var path: [Int] = []
        for index in 0..<count {
            guard let start = model.entityIndex(named: model.nameOfEntity(at: index)), state[start] == .unvisited else { continue }
            path.removeAll(keepingCapacity: true)
            var current: Int? = start
            while let next = current {
                if state[next] != .unvisited {
                    if state[next] == .walking, let at = path.firstIndex(of: next) {
                        cycles.append(path[at...].map(model.nameOfEntity(at:)))
                    }
                    break
                }
                state[next] = .walking
                path.append(next)
                current = model.parentIndex(ofEntityAt: next)
            }
            for node in path { state[node] = .done }
        }
        return cycles
    }
}

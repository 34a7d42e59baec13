import DataModel

/// A relationship with no inverse.
public struct MissingInverseRule: Rule {
    public static let description = RuleDescription(
        id: "missing_inverse",
        name: "Missing Inverse",
        summary: "A relationship has no inverse relationship.",
        rationale: """
            "You must also configure every relationship with an inverse" \
            (https://developer.apple.com/documentation/coredata/configuring-relationships). Without one, \
            Core Data does not mark the other object changed when the relationship changes, so it is not \
            validated again and delete rules cannot keep the graph consistent: a required to-one whose \
            destination is deleted saves and later reads nil (https://stackoverflow.com/questions/764125). \
            Xcode's model compiler warns about it (MOMC_NO_INVERSE_RELATIONSHIP_WARNINGS silences that).
            """,
        category: .relationships,
        defaultSeverity: .warning)

    public init() {}

    public func violations(in model: Model) -> [Violation] {
        var violations: [Violation] = []
        for entity in model.entities {
            let missing = entity.relationships.filter { $0.inverseName == nil }
            guard !missing.isEmpty else { continue }
            // Several relationships to one destination each need their own inverse; say so,
            // because giving them one shared inverse is the next mistake (ambiguous_inverse).
            var byDestination: [String: [Relationship]] = [:]
            for relationship in entity.relationships {
                if let destination = relationship.destinationEntityName {
                    byDestination[destination, default: []].append(relationship)
                }
            }
            for relationship in missing {
                let destination = relationship.destinationEntityName ?? "its destination"
                let siblings = relationship.destinationEntityName.flatMap { byDestination[$0] } ?? []
                let suggestedName = Self.suggestedInverseName(for: relationship, in: entity,
                                                              needsDistinctName: siblings.count > 1)
                var message = "'\(entity.name).\(relationship.name)' has no inverse; "
                    + "add one on '\(destination)' (e.g. '\(suggestedName)')"
                if siblings.count > 1 {
                    let names = siblings.map { "'\($0.name)'" }.joined(separator: ", ")
                    message += "; '\(entity.name)' has \(siblings.count) relationships to '\(destination)' "
                        + "(\(names)), so give each a distinct inverse"
                }
                violations.append(Violation(
                    message: message, location: relationship.location, entityName: entity.name,
                    propertyName: relationship.name,
                    suggestion: "add a relationship '\(suggestedName)' on '\(destination)' "
                        + "and set it as the inverse of '\(relationship.name)'"))
            }
        }
        return violations
    }

    /// `notes` for a lone relationship from Note, `notesAsEditor` when Note has several
    /// relationships to the same destination.
    static func suggestedInverseName(for relationship: Relationship, in entity: Entity,
                                     needsDistinctName: Bool) -> String {
        let plural = lowercasingFirst(entity.name) + (entity.name.hasSuffix("s") ? "es" : "s")
        guard needsDistinctName else { return plural }
        return plural + "As" + uppercasingFirst(relationship.name)
    }

    private static func lowercasingFirst(_ text: String) -> String {
        text.prefix(1).lowercased() + text.dropFirst()
    }

    private static func uppercasingFirst(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}

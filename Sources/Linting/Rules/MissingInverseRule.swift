import DataModel

/// A relationship with no inverse.
public struct MissingInverseRule: Rule {
    public static let description = RuleDescription(
        id: "missing_inverse",
        name: "Missing Inverse",
        summary: "A relationship has no inverse relationship.",
        rationale: """
            Apple's documentation says "You must also configure every relationship with an inverse". \
            Without one, Core Data does not mark the other object changed when the relationship changes, \
            so it is not validated again and delete rules cannot keep the graph consistent: a required \
            to-one whose destination is deleted saves, and later reads nil. Xcode's model compiler warns \
            about it (`MOMC_NO_INVERSE_RELATIONSHIP_WARNINGS` silences that warning).

            Default severity: warning. The model builds (momc only warns) and loads; what goes wrong is \
            silent inconsistency, which the app may never trigger.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/configuring-relationships",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
            "https://stackoverflow.com/questions/764125",
        ],
        howToFix: """
            Add a relationship on the destination that points back, and set each as the other's inverse. \
            When an entity has several relationships to the same destination, give each its own inverse \
            (`authoredNotes`, `editedNotes`), never one shared inverse.
            """,
        category: .relationships,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
                </entity>
                <entity name="User">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
                    ↓<relationship name="editor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
                </entity>
                <entity name="User"/>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                </entity>
                <entity name="User">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="author" inverseEntity="Note"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Relationships that name another one as their inverse without being named back: the fix
        // is to complete that pair, not to invent a new relationship. Only claims on
        // relationships without an inverse of their own matter, and the trait tables find
        // those (and, below, the relationships without an inverse) without visiting the rest.
        let claims = model.declaredRelationships { traits, inverse in
            traits.hasInverseName && inverse?.hasInverseName == false
        }
        var claimedBy: [DeclaredRelationship.Key: DeclaredRelationship] = [:]
        for claimer in claims {
            if let inverse = model.resolvedInverse(of: claimer), inverse.relationship.inverseName == nil,
               claimedBy[inverse.key] == nil {
                claimedBy[inverse.key] = claimer
            }
        }
        let withoutInverse = model.declaredRelationships { traits, _ in !traits.hasInverseName }
        var violations: [Violation] = []
        var start = withoutInverse.startIndex
        while start < withoutInverse.endIndex {
            // They come entity by entity: take one entity's at a time.
            let entityIndex = withoutInverse[start].position?.entityIndex
            let end = withoutInverse[start...].firstIndex { $0.position?.entityIndex != entityIndex } ?? withoutInverse.endIndex
            let entity = withoutInverse[start].entity
            let missing = withoutInverse[start..<end].map(\.relationship)
            start = end
            var byDestination: [String: [Relationship]] = [:]
            for relationship in entity.relationships {
                if let destination = relationship.destinationEntityName {
                    byDestination[destination, default: []].append(relationship)
                }
            }
            for relationship in missing {
                let declared = DeclaredRelationship(entity: entity, relationship: relationship,
                                                    position: model.position(of: relationship))
                if let claimer = claimedBy[declared.key] {
                    violations.append(Violation(
                        message: "'\(declared.qualifiedName)' has no inverse, but '\(claimer.qualifiedName)' names it "
                            + "as its inverse; set '\(claimer.relationship.name)' as the inverse of '\(relationship.name)'",
                        location: relationship.location, entityName: entity.name, propertyName: relationship.name,
                        suggestion: "set the inverse of '\(declared.qualifiedName)' to '\(claimer.relationship.name)'"))
                    continue
                }
                let destination = relationship.destinationEntityName ?? "its destination"
                let siblings = relationship.destinationEntityName.flatMap { byDestination[$0] } ?? []
                let suggestedName = Self.suggestedInverseName(for: relationship, in: entity,
                                                              needsDistinctName: siblings.count > 1, model: model.model)
                var message = "'\(declared.qualifiedName)' has no inverse; "
                    + "add one on '\(destination)' (e.g. '\(suggestedName)')"
                if siblings.count > 1 {
                    message += "; '\(entity.name)' has \(siblings.count) relationships to '\(destination)' "
                        + "(\(siblings.map { "'\($0.name)'" }.joined(separator: ", "))), so give each a distinct inverse"
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
    /// relationships to the same destination, or when the destination already has a property
    /// of the plain name.
    static func suggestedInverseName(for relationship: Relationship, in entity: Entity,
                                     needsDistinctName: Bool, model: Model) -> String {
        let plural = Naming.plural(Naming.lowerCamelCase(entity.name))
        let distinct = plural + "As" + Naming.uppercasingFirst(relationship.name)
        if needsDistinctName { return distinct }
        if let destination = model.destination(of: relationship),
           model.property(named: plural, in: destination) != nil {
            return distinct
        }
        return plural
    }
}

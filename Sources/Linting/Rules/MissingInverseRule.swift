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
            (`authoredNotes`, `editedNotes`), never one shared inverse. An entity's `parent` and \
            `children` (one to-one and one to-many to itself) are each other's inverse.
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
            // A parent/child link on one entity whose two ends were never paired.
            RuleExample("""
                <entity name="Category">
                    ↓<relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Category"/>
                    ↓<relationship name="children" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Category"/>
                </entity>
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
        // A relationship named as the inverse of one it does not name back: the fix is to
        // complete that pair, not to invent a new relationship. The first claimer wins.
        var claimedBy: [DeclaredRelationship.Key: DeclaredRelationship] = [:]
        for claimer in model.declaredRelationships(where: { $0.traits.hasInverseName && $0.inverseTraits?.hasInverseName == false }) {
            if let claimed = model.resolvedInverse(of: claimer), claimedBy[claimed.key] == nil {
                claimedBy[claimed.key] = claimer
            }
        }
        let wording = ModelWording(model.model)
        return model.declaredRelationships { !$0.traits.hasInverseName }.map { declared in
            let relationship = declared.relationship
            if let claimer = claimedBy[declared.key] {
                return declared.violation(
                    "'\(declared.qualifiedName)' has no inverse, but '\(claimer.qualifiedName)' names it "
                        + "as its inverse; set '\(claimer.relationship.name)' as the inverse of '\(relationship.name)'",
                    suggestion: "set the inverse of '\(declared.qualifiedName)' to '\(claimer.relationship.name)'")
            }
            let destination = relationship.destinationEntityName ?? "its destination"
            // The entity's relationships to the same destination, this one included.
            let siblings = relationship.destinationEntityName.map { name in
                declared.entity.relationships.filter { $0.destinationEntityName == name }
            } ?? []
            if let partner = Self.selfLinkPartner(of: relationship, siblings: siblings, in: declared.entity) {
                let partnerName = "\(declared.entity.name).\(partner.name)"
                return declared.violation(
                    "'\(declared.qualifiedName)' has no inverse; '\(declared.entity.name)' has one to-one and one to-many "
                        + "relationship to itself ('\(relationship.name)', '\(partner.name)'), the two ends of a parent/child "
                        + "link, so make them each other's inverse",
                    suggestion: wording.isSwiftData
                        ? "write @Relationship(inverse: \\\(declared.qualifiedName)) on '\(partnerName)'"
                        : "set '\(partner.name)' as the inverse of '\(relationship.name)', and '\(relationship.name)' as the "
                            + "inverse of '\(partner.name)'")
            }
            let suggestedName = Self.suggestedInverseName(for: relationship, in: declared.entity,
                                                          needsDistinctName: siblings.count > 1, model: model.model)
            var message = "'\(declared.qualifiedName)' has no inverse; "
                + "add one on '\(destination)' (e.g. '\(suggestedName)')"
            if siblings.count > 1 {
                message += "; '\(declared.entity.name)' has \(siblings.count) relationships to '\(destination)' "
                    + "(\(siblings.map { "'\($0.name)'" }.joined(separator: ", "))), so give each a distinct inverse"
            }
            return declared.violation(message, suggestion: wording.isSwiftData
                ? "add a relationship '\(suggestedName)' to '\(destination)' and write "
                    + "@Relationship(inverse: \\\(destination).\(suggestedName)) on '\(declared.qualifiedName)'"
                : "add a relationship '\(suggestedName)' on '\(destination)' and set it as the inverse of '\(relationship.name)'")
        }
    }

    /// The other end of a parent/child link on one entity (`parent`/`children`): when the entity
    /// has exactly two relationships to itself, one to-one and one to-many, and neither names an
    /// inverse, they are almost always each other's inverse. Two to-ones (`mother`, `father`) or
    /// two to-manys are not paired: nothing says they answer each other.
    static func selfLinkPartner(of relationship: Relationship, siblings: [Relationship], in entity: Entity) -> Relationship? {
        guard relationship.destinationEntityName == entity.name, siblings.count == 2,
              siblings.allSatisfy({ $0.inverseName == nil }),
              let partner = siblings.first(where: { $0.name != relationship.name }),
              partner.isToMany != relationship.isToMany
        else { return nil }
        return partner
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

import DataModel

/// An inverse that does not exist on the destination, or that does not point back.
public struct InverseMismatchRule: Rule {
    public static let description = RuleDescription(
        id: "inverse_mismatch",
        name: "Inverse Mismatch",
        summary: "A relationship's inverse does not exist on the destination, or does not point back to it.",
        rationale: """
            Core Data keeps both sides of a relationship in step only when the two are each other's \
            inverse: the inverse must be a relationship of the destination entity (or one of its \
            ancestors) whose own inverse is this relationship and whose destination is this entity. A \
            one-sided or dangling inverse makes Xcode's model compiler reject the model, and a model \
            built in code with such a pair corrupts the graph: setting one side updates the wrong \
            relationship on the other.

            Default severity: error when the inverse cannot be resolved into a pair at all: it names \
            no relationship, a relationship of an entity outside the destination's hierarchy, or one \
            whose destination is unrelated to this entity. A one-sided pair (the inverse names a \
            third relationship, or none) is a warning: models with one build (see \
            `ambiguous_inverse`), and the damage is a silently stale side, not a failure.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsrelationshipdescription/inverserelationship",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
        ],
        howToFix: """
            Point the inverse at a relationship of the destination entity, and make that relationship name \
            this one as its inverse with this entity as its destination.
            """,
        category: .relationships,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="writings" inverseEntity="User"/>
                </entity>
                <entity name="User">
                    ↓<relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="author" inverseEntity="Note"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                </entity>
                <entity name="User">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                </entity>
                <entity name="Draft"/>
                <entity name="User">
                    ↓<relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Draft" inverseName="author" inverseEntity="Note"/>
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
            // The inverse may be declared on an ancestor of the destination, and point at an
            // ancestor of the source.
            RuleExample("""
                <entity name="Item" isAbstract="YES">
                    <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="items" inverseEntity="Person"/>
                </entity>
                <entity name="Book" parentEntity="Item"/>
                <entity name="Party" isAbstract="YES">
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="owner" inverseEntity="Item"/>
                </entity>
                <entity name="Person" parentEntity="Party"/>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        var violations: [Violation] = []
        let isSwiftData = ModelWording(model.model).isSwiftData
        // No inverse named is missing_inverse's business. Most of the rest are one half of a
        // well-made pair (the inverse names it back, points to its entity, and no other inverse
        // entity is written), which passes every check below.
        for declared in model.declaredRelationships(where: { $0.traits.hasInverseName && !$0.formsWellMadePair }) {
            let relationship = declared.relationship
            guard let inverseName = relationship.inverseName,
                  let ownerName = relationship.inverseEntityName ?? relationship.destinationEntityName
            else { continue }
            guard let inverse = model.resolvedInverse(of: declared) else {
                // An unknown entity is unknown_destination's business.
                guard let owner = model.entity(named: ownerName) else { continue }
                let what = model.property(named: inverseName, in: owner) == nil ? "has no relationship" : "has an attribute, not a relationship,"
                violations.append(declared.violation("'\(declared.qualifiedName)' names '\(ownerName).\(inverseName)' as its inverse, but "
                    + "'\(ownerName)' \(what) named '\(inverseName)'; choose a relationship of '\(ownerName)' that points back"))
                continue
            }
            if model.ambiguousInverseGroups.isMember(declared) { continue }  // ambiguous_inverse reports the group once
            if let destination = relationship.destinationEntityName, let inverseEntity = relationship.inverseEntityName,
               model.entity(named: destination) != nil, !model.areInSameLine(destination, inverseEntity) {
                violations.append(declared.violation(isSwiftData
                    ? "'\(declared.qualifiedName)' is typed '\(destination)' but its inverse key path is rooted at "
                        + "'\(inverseEntity)'; the inverse must be a property of '\(destination)', so root the key path there"
                    : "'\(declared.qualifiedName)' has destination '\(destination)' but inverse entity "
                        + "'\(inverseEntity)'; the inverse must belong to the destination, so set both to the same entity"))
                continue
            }
            guard let back = model.resolvedInverse(of: inverse) else {
                let problem: String
                if let backName = inverse.relationship.inverseName {
                    let backOwner = inverse.relationship.inverseEntityName ?? inverse.relationship.destinationEntityName ?? "its destination"
                    problem = "'\(inverse.qualifiedName)' names '\(backOwner).\(backName)', which is not a relationship, as its inverse"
                } else {
                    problem = "'\(inverse.qualifiedName)' has no inverse"
                }
                violations.append(declared.violation("'\(declared.qualifiedName)' names '\(inverse.qualifiedName)' as its inverse, but \(problem); "
                    + (isSwiftData ? "write inverse: \\\(declared.qualifiedName) on '\(inverse.qualifiedName)'"
                                   : "set '\(relationship.name)' as the inverse of '\(inverse.qualifiedName)'"), severity: .warning))
                continue
            }
            if back.relationship.location != relationship.location {
                violations.append(declared.violation("'\(declared.qualifiedName)' names '\(inverse.qualifiedName)' as its inverse, but "
                    + "'\(inverse.qualifiedName)' names '\(back.qualifiedName)'; make the two relationships each other's inverse",
                    severity: .warning))
                continue
            }
            // The inverse may point at an ancestor (the pair is declared higher up) or at a
            // sub-entity (a relationship of an abstract parent that only one child ever fills).
            if let inverseDestination = inverse.relationship.destinationEntityName,
               !model.areInSameLine(declared.entity.name, inverseDestination) {
                violations.append(declared.violation("'\(declared.qualifiedName)' names '\(inverse.qualifiedName)' as its inverse, but "
                    + "'\(inverse.qualifiedName)' points to '\(inverseDestination)', not '\(declared.entity.name)'; "
                    + (isSwiftData ? "type '\(inverse.qualifiedName)' as '\(declared.entity.name)'"
                                   : "set the destination of '\(inverse.qualifiedName)' to '\(declared.entity.name)'")))
            }
        }
        return violations
    }
}

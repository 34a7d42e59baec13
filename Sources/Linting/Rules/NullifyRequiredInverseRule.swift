import DataModel

/// Nullify where the inverse is required, so the destinations fail validation on save.
public struct NullifyRequiredInverseRule: Rule {
    public static let description = RuleDescription(
        id: "nullify_required_inverse",
        name: "Nullify Required Inverse",
        summary: "A Nullify relationship's inverse is required, so deleting the source leaves destinations that fail validation.",
        rationale: """
            Nullify clears each destination's inverse. Apple's guide notes this "only makes sense" if \
            the inverse is optional or set again before the next save: a required to-one inverse is left \
            nil (error 1570) and a to-many inverse with a minCount drops below it (1580), so the \
            destination, and with it the whole save, fails after an ordinary delete. A missing delete \
            rule means Nullify.
            """,
        sources: [
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
            "https://developer.apple.com/documentation/coredata/nsdeleterule/nullifydeleterule",
            "https://mcohen.me/?p=6584",
        ],
        howToFix: """
            Use Cascade (the destinations cannot live without the source), Deny (the source must not be \
            deleted while it has them), or make the inverse optional.
            """,
        category: .deleteRules,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Team">
                    ↓<relationship name="players" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                <entity name="Player">
                    <relationship name="team" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Player">
                    ↓<relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" minCount="1" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                """),
            // The required inverse is inherited from the destination's parent.
            RuleExample("""
                <entity name="Team">
                    ↓<relationship name="players" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                <entity name="Member" isAbstract="YES">
                    <relationship name="team" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                <entity name="Player" parentEntity="Member"/>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                <entity name="Player">
                    <relationship name="team" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                """),
            // A required to-many with no minimum passes validation when empty.
            RuleExample("""
                <entity name="Player">
                    <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                <entity name="Team">
                    <relationship name="players" toMany="YES" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only a Nullify whose inverse must hold something is looked at further.
        let candidates = model.declaredRelationships { traits, inverse in
            guard traits.deletionRule == .nullify, let inverse else { return false }
            return (!inverse.isToMany && !inverse.isOptional) || (inverse.isToMany && inverse.minimumCount > 0)
        }
        return candidates.compactMap { declared in
            let relationship = declared.relationship
            guard relationship.deletionRule == .nullify, let inverse = model.resolvedInverse(of: declared) else { return nil }
            let inverseRelationship = inverse.relationship
            let destination = relationship.destinationEntityName ?? inverse.entity.name
            let failure: String
            if !inverseRelationship.isToMany && !inverseRelationship.isOptional {
                failure = "'\(inverse.qualifiedName)' is required, so deleting \(Naming.indefinite(declared.entity.name)) leaves its "
                    + "'\(destination)' objects without one and the save fails (1570)"
            } else if inverseRelationship.isToMany, let minimum = inverseRelationship.minCount, minimum > 0 {
                failure = "'\(inverse.qualifiedName)' needs at least \(minimum), so deleting \(Naming.indefinite(declared.entity.name)) can "
                    + "leave \(Naming.indefinite(destination)) below its minimum and the save fails (1580)"
            } else {
                return nil
            }
            return Violation(
                message: "'\(declared.qualifiedName)' nullifies its inverse, but \(failure); use Cascade or Deny, "
                    + "or make '\(inverse.qualifiedName)' optional",
                location: relationship.location, entityName: declared.entity.name, propertyName: relationship.name)
        }
    }
}

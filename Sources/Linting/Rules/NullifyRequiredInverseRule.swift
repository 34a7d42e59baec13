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
            nil (error 1570) and a to-many inverse with a minimum count drops below it (1580), so the \
            destination, and with it the whole save, fails after an ordinary delete. A count is checked \
            only on a non-empty to-many (SDK header), and an emptied optional to-many passes \
            validation (inferred, as the conformance suite's `validation.empty-optional-to-many-passes` \
            specifies), so an optional to-many inverse with a minimum count of 1 is not flagged: removing \
            one member leaves it either empty or still at its minimum. A missing delete rule means Nullify.

            Default severity: warning. The model builds and loads; the save fails only when an object \
            that still has destinations is deleted, which the app may prevent (by deleting or re-linking \
            the destinations first).
            """,
        sources: [
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
            "https://developer.apple.com/documentation/coredata/nsdeleterule/nullifydeleterule",
            "https://mcohen.me/?p=6584",
            "docs/coredata-semantics.md §1 Nullify with a required inverse, §2 Checks",
        ],
        howToFix: """
            Use Cascade (the destinations cannot live without the source), Deny (the source must not be \
            deleted while it has them), or relax the inverse: make a to-one inverse optional; lower a \
            to-many inverse's minimum count (to 1 if it is optional, to 0 if it is required).
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
            // An optional to-many inverse with a minimum of 2: removing one of two members leaves one.
            RuleExample("""
                <entity name="Player">
                    ↓<relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" minCount="2" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                """),
            // A required to-many inverse with a minimum of 1: removing the last member empties it.
            RuleExample("""
                <entity name="Player">
                    ↓<relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                <entity name="Team">
                    <relationship name="players" toMany="YES" minCount="1" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
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
            // An optional to-many with a minimum of 1 is left either empty (which passes) or at 1 or more.
            RuleExample("""
                <entity name="Player">
                    <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" minCount="1" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
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
            return (!inverse.isToMany && !inverse.isOptional)
                || (inverse.isToMany && inverse.minimumCount > (inverse.isOptional ? 1 : 0))
        }
        let wording = ModelWording(model.model)
        return candidates.compactMap { declared in
            let relationship = declared.relationship
            guard let inverse = model.resolvedInverse(of: declared) else { return nil }
            let inverseRelationship = inverse.relationship
            let destination = relationship.destinationEntityName ?? inverse.entity.name
            let failure: String, relaxation: String
            if !inverseRelationship.isToMany && !inverseRelationship.isOptional {
                failure = "'\(inverse.qualifiedName)' is required, so deleting \(Naming.indefinite(declared.entity.name)) leaves its "
                    + "'\(destination)' objects without one and the save fails (1570)"
                relaxation = "make '\(inverse.qualifiedName)' optional"
            } else if inverseRelationship.isToMany, let minimum = inverseRelationship.minCount,
                      minimum > (inverseRelationship.isOptional ? 1 : 0) {
                // An optional to-many may be emptied, so only a minimum above 1 can be broken; a
                // required one must keep its minimum even when emptied.
                failure = "'\(inverse.qualifiedName)' needs at least \(minimum), so deleting \(Naming.indefinite(declared.entity.name)) can "
                    + "leave \(Naming.indefinite(destination)) below its minimum and the save fails (1580)"
                let minimumCount = wording.isSwiftData ? wording.minimumCountName : "the minimum count"
                relaxation = inverseRelationship.isOptional
                    ? "lower \(minimumCount) of '\(inverse.qualifiedName)' to 1 (an emptied optional to-many passes)"
                    : "lower \(minimumCount) of '\(inverse.qualifiedName)' to 0"
            } else {
                return nil
            }
            return declared.violation("'\(declared.qualifiedName)' nullifies its inverse, but \(failure); use "
                + "\(wording.deleteRule(.cascade)) or \(wording.deleteRule(.deny)), or \(relaxation)")
        }
    }
}

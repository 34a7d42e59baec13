import DataModel

/// Cascade across a relationship whose inverse is to-many, so the destination is shared.
public struct CascadeToSharedRule: Rule {
    public static let description = RuleDescription(
        id: "cascade_to_shared",
        name: "Cascade to Shared",
        summary: "A Cascade relationship's inverse is to-many, so the objects it deletes are shared with others.",
        rationale: """
            Cascade deletes every destination. That suits owned objects, whose inverse is a to-one \
            back to their single owner. When the inverse is to-many, the destination is shared: \
            cascading across a many-to-many deletes every partner although other objects still hold \
            them, and a child cascading to its parent (`Player.team` with Cascade) deletes the team \
            that all the other players are in, which then runs its own rules on them.

            Default severity: warning. Nothing fails: the deletes succeed, and whether they are wanted \
            is the model's intent, which only its author knows.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsdeleterule/cascadedeleterule",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
        ],
        howToFix: "Use Nullify on this side; keep Cascade on the owning side only (`Team.players`, not `Player.team`).",
        category: .deleteRules,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                <entity name="Player">
                    ↓<relationship name="team" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="tags" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
                </entity>
                <entity name="Tag">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
                </entity>
                """),
            // The destination is a sub-entity; the to-many inverse is declared on its parent.
            RuleExample("""
                <entity name="Organisation" isAbstract="YES">
                    <relationship name="players" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Player" inverseName="club" inverseEntity="Player"/>
                </entity>
                <entity name="Club" parentEntity="Organisation"/>
                <entity name="Player">
                    ↓<relationship name="club" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Club" inverseName="players" inverseEntity="Club"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                <entity name="Player">
                    <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only a Cascade whose inverse is to-many is looked at further.
        let candidates = model.declaredRelationships { traits, inverse in
            traits.deletionRule == .cascade && inverse?.isToMany == true
        }
        let wording = ModelWording(model.model)
        return candidates.compactMap { declared in
            let relationship = declared.relationship
            guard let inverse = model.resolvedInverse(of: declared) else { return nil }
            let source = declared.entity.name
            let destination = relationship.destinationEntityName ?? inverse.entity.name
            let consequence = relationship.isToMany
                ? "'\(declared.qualifiedName)' and '\(inverse.qualifiedName)' are many-to-many, so deleting one '\(source)' "
                    + "deletes every '\(destination)' it has, though other '\(source)' objects still hold them"
                : "'\(declared.qualifiedName)' cascades to \(Naming.indefinite(destination)) shared through the to-many '\(inverse.qualifiedName)', "
                    + "so deleting one '\(source)' deletes the '\(destination)' that the other '\(source)' objects are in"
            return declared.violation(
                consequence + "; use \(wording.deleteRule(.nullify)) here and keep \(wording.deleteRule(.cascade)) on the owning side",
                suggestion: wording.settingDeleteRule(of: declared.qualifiedName, to: .nullify))
        }
    }
}

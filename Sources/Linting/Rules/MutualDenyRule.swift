import DataModel

/// Deny on both sides of a relationship pair.
public struct MutualDenyRule: Rule {
    public static let description = RuleDescription(
        id: "mutual_deny",
        name: "Mutual Deny",
        summary: "Both sides of a relationship pair use the Deny delete rule.",
        rationale: """
            Deny makes a save fail (1600) while the relationship is non-empty. With Deny on both sides, \
            neither object can be deleted while they are linked: the app must first break the link by \
            hand, in the right order, or every delete fails. Deny is satisfied only when every \
            destination is deleted in the same save.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsdeleterule/denydeleterule",
            "https://developer.apple.com/documentation/coredata/nsmanagedobject/validatefordelete()",
        ],
        howToFix: "Keep Deny on the side that protects data (an account that still has invoices) and use Nullify or Cascade on the other.",
        category: .deleteRules,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Account">
                    ↓<relationship name="invoices" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Invoice" inverseName="account" inverseEntity="Invoice"/>
                </entity>
                <entity name="Invoice">
                    <relationship name="account" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Account" inverseName="invoices" inverseEntity="Account"/>
                </entity>
                """),
            // A relationship that is its own inverse has Deny on both ends.
            RuleExample("""
                <entity name="Person">
                    ↓<relationship name="friends" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Account">
                    <relationship name="invoices" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Invoice" inverseName="account" inverseEntity="Invoice"/>
                </entity>
                <entity name="Invoice">
                    <relationship name="account" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="invoices" inverseEntity="Account"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only Deny relationships whose inverse is Deny are looked at further.
        let candidates = model.declaredRelationships { traits, inverse in
            traits.deletionRule == .deny && inverse?.deletionRule == .deny
        }
        return candidates.compactMap { declared in
            let relationship = declared.relationship
            guard relationship.deletionRule == .deny, let inverse = model.resolvedInverse(of: declared),
                  inverse.relationship.deletionRule == .deny,
                  model.resolvedInverse(of: inverse)?.relationship.location == relationship.location,
                  // Report the pair once, at the side whose name sorts first, so the choice does
                  // not depend on the order of the file.
                  declared.qualifiedName <= inverse.qualifiedName
            else { return nil }
            if inverse.relationship.location == relationship.location {
                // A relationship that is its own inverse (`Person.friends`): Deny holds on both ends.
                return Violation(
                    message: "'\(declared.qualifiedName)' is its own inverse and uses Deny, so no linked "
                        + "'\(declared.entity.name)' can be deleted while it has any; use Nullify",
                    location: relationship.location, entityName: declared.entity.name, propertyName: relationship.name)
            }
            return Violation(
                message: "'\(declared.qualifiedName)' and its inverse '\(inverse.qualifiedName)' both use Deny, so neither "
                    + "'\(declared.entity.name)' nor '\(inverse.entity.name)' can be deleted while linked; "
                    + "use Nullify or Cascade on one side",
                location: relationship.location, entityName: declared.entity.name, propertyName: relationship.name)
        }
    }
}

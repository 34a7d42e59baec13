import DataModel

/// Deny on both sides of a relationship pair.
public struct MutualDenyRule: Rule {
    public static let description = RuleDescription(
        id: "mutual_deny",
        name: "Mutual Deny",
        summary: "Both sides of a relationship pair use the Deny delete rule.",
        rationale: """
            Deny makes a save fail (1600) when a deleted object's relationship still holds objects that \
            are not deleted in the same save. With Deny on both sides, deleting either object alone fails \
            while they are linked: the app must first break the link by hand, or delete both sides in \
            the same save (which succeeds: Deny is satisfied when every destination is deleted too, as \
            the conformance suite's `deny.destinations-deleted-in-same-save` specifies; inferred, \
            docs/coredata-semantics.md §1). Usually one side should give way instead.

            Default severity: warning. The model builds and loads; a delete fails only when the app \
            deletes one side alone, which it may never do.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsdeleterule/denydeleterule",
            "https://developer.apple.com/documentation/coredata/nsmanagedobject/validatefordelete()",
            "docs/coredata-semantics.md §1 Deny and failed saves",
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
        let wording = ModelWording(model.model)
        let deny = wording.deleteRule(.deny), nullify = wording.deleteRule(.nullify), cascade = wording.deleteRule(.cascade)
        return candidates.compactMap { declared in
            let relationship = declared.relationship
            guard let inverse = model.resolvedInverse(of: declared),
                  model.resolvedInverse(of: inverse)?.relationship.location == relationship.location,
                  // Report the pair once, at the side whose name sorts first, so the choice does
                  // not depend on the order of the file.
                  declared.qualifiedName <= inverse.qualifiedName
            else { return nil }
            if inverse.relationship.location == relationship.location {
                // A relationship that is its own inverse (`Person.friends`): Deny holds on both ends.
                return declared.violation(
                    "'\(declared.qualifiedName)' is its own inverse and uses \(deny), so deleting a linked "
                        + "'\(declared.entity.name)' fails (1600) unless its '\(relationship.name)' are deleted in the same save; "
                        + "use \(nullify)")
            }
            return declared.violation(
                "'\(declared.qualifiedName)' and its inverse '\(inverse.qualifiedName)' both use \(deny), so deleting "
                    + "\(Naming.indefinite(declared.entity.name)) or \(Naming.indefinite(inverse.entity.name)) while they are linked "
                    + "fails (1600) unless both are deleted in the same save; use \(nullify) or \(cascade) on one side")
        }
    }
}

import DataModel

/// A Cascade path that reaches a relationship with the Deny rule.
public struct CascadeIntoDenyRule: Rule {
    public static let description = RuleDescription(
        id: "cascade_into_deny",
        name: "Cascade into Deny",
        summary: "A chain of Cascade rules reaches a Deny relationship, so deleting the first object fails while that relationship holds objects the same save does not delete.",
        rationale: """
            Cascade deletes the destinations, which then run their own rules. When one of them has a \
            Deny relationship that still holds objects, the save fails with 1600 on that object, and \
            with it the delete of the root the user asked for; the pending deletions stay in the context \
            and make later saves fail too. Deny is satisfied when every destination is deleted in the \
            same save (inferred; the conformance suite's `cascade.reaches-deny-satisfied` and \
            `deny.destinations-deleted-in-same-save` specify it), so deleting the denied objects \
            together with the root succeeds, and a to-one Deny back to the object that cascades into it \
            is not flagged. \
            The message names the whole path (the shortest one; a path of more than a dozen steps is \
            shortened in the middle so the finding stays one line); inherited rules and sub-entity \
            destinations are followed.

            Default severity: warning. The model builds and loads; the delete fails only when the denied \
            relationship still holds objects the save keeps, which the app may prevent.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsdeleterule/denydeleterule",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
            "docs/coredata-semantics.md §1 Deny and failed saves",
        ],
        howToFix: """
            Decide which rule wins: make the Deny relationship Nullify or Cascade if the cascade should \
            succeed, or make the first relationship of the path Deny or Nullify so the user is told up front.
            """,
        category: .deleteRules,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Library">
                    ↓<relationship name="shelves" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Shelf" inverseName="library" inverseEntity="Shelf"/>
                </entity>
                <entity name="Shelf">
                    <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="shelves" inverseEntity="Library"/>
                    ↓<relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                    <relationship name="loans" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Loan" inverseName="book" inverseEntity="Loan"/>
                </entity>
                <entity name="Loan">
                    <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="loans" inverseEntity="Book"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Shelf">
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                    <relationship name="loans" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Loan" inverseName="book" inverseEntity="Loan"/>
                </entity>
                <entity name="Loan">
                    <relationship name="book" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Book" inverseName="loans" inverseEntity="Book"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Deny relationships that can fail a cascade. A to-one Deny whose inverse cascades is left
        // out: its only destination is the object cascading into it.
        let denials = model.declaredRelationships {
            $0.traits.deletionRule == .deny && ($0.traits.isToMany || $0.inverseTraits?.deletionRule != .cascade)
        }
        let wording = ModelWording(model.model)
        return model.cascadeGraph.paths(into: denials).map { path in
            let start = path.start, denial = path.denial
            let text = RelationshipPathText.render(first: path.firstSteps.map(\.qualifiedName), hidden: path.hiddenSteps,
                                                   last: path.lastSteps.map(\.qualifiedName))
            return start.violation(
                "deleting \(Naming.indefinite(start.entity.name)) cascades through \(text) to '\(denial.qualifiedName)', "
                    + "which uses \(wording.deleteRule(.deny)), so the delete fails (1600) while '\(denial.qualifiedName)' "
                    + "holds objects not deleted in the same save; make that relationship "
                    + "\(wording.deleteRule(.nullify)) or \(wording.deleteRule(.cascade)), or stop the cascade earlier")
        }
    }
}

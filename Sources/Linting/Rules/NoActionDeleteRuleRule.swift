import DataModel

/// A relationship whose delete rule is No Action.
public struct NoActionDeleteRuleRule: Rule {
    public static let description = RuleDescription(
        id: "no_action_delete_rule",
        name: "No Action Delete Rule",
        summary: "A relationship with an inverse uses the No Action delete rule.",
        rationale: """
            With No Action, deleting the source leaves every destination pointing at the deleted \
            object: the store is inconsistent until the app repairs the inverse itself, and a later \
            save fails with a dangling reference (1550) or, on newer systems, is patched up with a log \
            message. Apple describes it as meant for very large to-many relationships whose inverse the \
            app maintains; Xcode has long flagged it as "an advanced setting". A relationship without \
            an inverse leaves nothing behind on the other side, so only relationships with an inverse are \
            flagged (`missing_inverse` reports the others).

            Default severity: warning. No Action is a legal choice Apple documents for large to-manys; \
            the model builds and saves succeed, and the dangling references are the app's to repair.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsdeleterule/noactiondeleterule",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
            "https://stackoverflow.com/questions/5629481",
        ],
        howToFix: "Use Nullify (the usual choice), Cascade for owned objects, or Deny; keep No Action only if your code clears the inverse on delete.",
        category: .deleteRules,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Folder">
                    ↓<relationship name="notes" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <entity name="Note">
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Log">
                    <relationship name="entries" optional="YES" toMany="YES" deletionRule="No Action" destinationEntity="Entry"/>
                </entity>
                <entity name="Entry"/>
                """),
            RuleExample("""
                <entity name="Folder">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <entity name="Note">
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only No Action relationships are looked at further.
        let candidates = model.declaredRelationships { traits, _ in traits.deletionRule == .noAction }
        let wording = ModelWording(model.model)
        return candidates.compactMap { declared in
            guard let inverse = model.resolvedInverse(of: declared) else { return nil }
            return declared.violation(
                "'\(declared.qualifiedName)' uses \(wording.deleteRule(.noAction)), so deleting "
                    + "\(Naming.indefinite(declared.entity.name)) leaves '\(inverse.qualifiedName)' pointing at the deleted object; "
                    + "use \(wording.deleteRule(.nullify)), \(wording.deleteRule(.cascade)) or \(wording.deleteRule(.deny))",
                suggestion: wording.settingDeleteRule(of: declared.qualifiedName, to: .nullify))
        }
    }
}

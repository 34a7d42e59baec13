import DataModel

/// A Deny delete rule on an entity synced with CloudKit.
public struct CloudKitDenyRuleRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_deny_rule",
        name: "CloudKit Deny Rule",
        summary: "A relationship synced with CloudKit uses the Deny delete rule.",
        rationale: """
            A delete made on another device cannot be refused here, so Core Data rejects Deny: "The \
            following relationships are configured with unsupported delete rules:", listing entries \
            such as `Account:invoices - Deny`. Nullify, Cascade and No Action pass. \
            \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all,
        howToFix: "Use Nullify or Cascade, and enforce the rule in your own code before deleting.",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Account">
                    ↓<relationship name="invoices" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Invoice" inverseName="account" inverseEntity="Invoice"/>
                </entity>
                <entity name="Invoice">
                    <relationship name="account" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="invoices" inverseEntity="Account"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Account"/>
                    <memberEntity name="Invoice"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Account">
                    <relationship name="invoices" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Invoice" inverseName="account" inverseEntity="Invoice"/>
                </entity>
                <entity name="Invoice">
                    <relationship name="account" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Account" inverseName="invoices" inverseEntity="Account"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Account"/>
                    <memberEntity name="Invoice"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        let wording = ModelWording(model.model)
        return model.cloudKitRelationships { $0.deletionRule == .deny }.map { declared in
            // Core Data's own words for an Xcode model; the same refusal in Swift's terms for SwiftData.
            let refusal = wording.isSwiftData
                ? "CloudKit integration does not support the delete rule .deny: '\(declared.qualifiedName)' uses it; "
                    + "use .nullify or .cascade"
                : "CloudKit integration does not support the delete rule of "
                    + "'\(declared.entity.name):\(declared.relationship.name) - Deny'; use Nullify or Cascade"
            return declared.violation(refusal, suggestion: wording.settingDeleteRule(of: declared.qualifiedName, to: .nullify))
        }
    }
}

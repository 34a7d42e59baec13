import DataModel

/// A relationship without an inverse on an entity synced with CloudKit.
public struct CloudKitMissingInverseRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_missing_inverse",
        name: "CloudKit Missing Inverse",
        summary: "A relationship synced with CloudKit has no inverse.",
        rationale: """
            Core Data mirrors relationships to CloudKit through both sides, so it requires: "CloudKit \
            integration requires that all relationships have an inverse, the following do not:". Where \
            `missing_inverse` is a warning, under CloudKit the store refuses to load. \
            \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all,
        howToFix: "Add an inverse relationship on the destination and set the two as each other's inverse.",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
                </entity>
                <entity name="Folder"/>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                    <memberEntity name="Folder"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
                </entity>
                <entity name="Folder"/>
                <configuration name="Local">
                    <memberEntity name="Note"/>
                    <memberEntity name="Folder"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        model.cloudKitRelationships { !$0.hasInverseName }.map { declared in
            let destination = declared.relationship.destinationEntityName ?? "its destination"
            return declared.violation(
                "CloudKit integration requires that all relationships have an inverse: '\(declared.qualifiedName)' does not; "
                    + "add one on '\(destination)'")
        }
    }
}

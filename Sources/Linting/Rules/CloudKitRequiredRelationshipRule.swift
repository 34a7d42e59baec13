import DataModel

/// A non-optional relationship on an entity synced with CloudKit.
public struct CloudKitRequiredRelationshipRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_required_relationship",
        name: "CloudKit Required Relationship",
        summary: "A relationship synced with CloudKit is not optional.",
        rationale: """
            CloudKit delivers records in no particular order, so an object can arrive before the one \
            it points to; Core Data therefore requires: "CloudKit integration requires that all \
            relationships be optional, the following are not:". \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all + ["https://github.com/CubeLabsNZ/CubeTime/pull/131"],
        howToFix: "Make the relationship optional and handle a missing destination in code.",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="folder" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                <entity name="Folder">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                    <memberEntity name="Folder"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                <entity name="Folder">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                    <memberEntity name="Folder"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        model.cloudKitRelationships { !$0.isOptional && !$0.isTransient }.map { declared in
            declared.violation(
                "CloudKit integration requires that all relationships be optional: '\(declared.qualifiedName)' is not; "
                    + "make it optional")
        }
    }
}

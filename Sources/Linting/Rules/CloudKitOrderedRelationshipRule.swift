import DataModel

/// An ordered relationship on an entity synced with CloudKit.
public struct CloudKitOrderedRelationshipRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_ordered_relationship",
        name: "CloudKit Ordered Relationship",
        summary: "A relationship synced with CloudKit is ordered.",
        rationale: """
            CloudKit has no ordered references, so Core Data refuses: "CloudKit integration does not \
            support ordered relationships. The following relationships are marked ordered:". \
            \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all + ["https://github.com/CubeLabsNZ/CubeTime/pull/131"],
        howToFix: "Make the relationship unordered and keep the order in an attribute of the destination (a `position` number) that you sort by.",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Playlist">
                    ↓<relationship name="songs" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Song" inverseName="playlist" inverseEntity="Song"/>
                </entity>
                <entity name="Song">
                    <relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Playlist"/>
                    <memberEntity name="Song"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Playlist">
                    <relationship name="songs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Song" inverseName="playlist" inverseEntity="Song"/>
                </entity>
                <entity name="Song">
                    <attribute name="position" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="songs" inverseEntity="Playlist"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Playlist"/>
                    <memberEntity name="Song"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        model.cloudKitRelationships { $0.isOrdered }.map { declared in
            declared.violation(
                "CloudKit integration does not support ordered relationships: '\(declared.qualifiedName)' is marked ordered; "
                    + "make it unordered and sort by an attribute")
        }
    }
}

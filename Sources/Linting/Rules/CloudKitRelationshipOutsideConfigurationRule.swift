import DataModel

/// A relationship from a CloudKit configuration to an entity outside it.
public struct CloudKitRelationshipOutsideConfigurationRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_relationship_outside_configuration",
        name: "CloudKit Relationship Outside Configuration",
        summary: "A relationship of an entity in a CloudKit configuration points to an entity outside that configuration.",
        rationale: """
            A configuration becomes one store, and relationships across stores are not supported; a \
            synced object cannot point to one that never reaches CloudKit. Core Data refuses: "CloudKit \
            integration does not allow relationships to objects that aren't sync'd. The following \
            relationships have destination entities that not in the specified configuration." \
            \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all + [
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
        ],
        howToFix: "Add the destination entity to the same configuration, or replace the relationship with an identifier attribute you resolve in code.",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="draft" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Draft" inverseName="note" inverseEntity="Draft"/>
                </entity>
                <entity name="Draft">
                    <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="draft" inverseEntity="Note"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                <configuration name="Local">
                    <memberEntity name="Draft"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="draft" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Draft" inverseName="note" inverseEntity="Draft"/>
                </entity>
                <entity name="Draft">
                    <relationship name="note" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Note" inverseName="draft" inverseEntity="Note"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                    <memberEntity name="Draft"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        var violations: [Violation] = []
        var reported: Set<SourceLocation> = []
        for configuration in model.configurations where configuration.usedWithCloudKit {
            let members = model.entitySet(named: configuration.memberEntityNames)
            for member in model.entities(where: members.contains) {
                // A synced entity's record carries what it inherits too. An unknown destination is
                // unknown_destination's business.
                let outside = member.relationshipsDeclaredOrInherited {
                    $0.knownDestination.map { !members.contains($0) } ?? false
                }
                for declared in outside where reported.insert(declared.relationship.location).inserted {
                    let destination = declared.relationship.destinationEntityName ?? "?"
                    violations.append(declared.violation(
                        "CloudKit integration does not allow relationships to objects that aren't sync'd: "
                            + "'\(declared.qualifiedName)' points to '\(destination)', which is not in "
                            + "configuration '\(configuration.name)'; add '\(destination)' to it",
                        suggestion: "add '\(destination)' to configuration '\(configuration.name)'"))
                }
            }
        }
        return violations
    }
}

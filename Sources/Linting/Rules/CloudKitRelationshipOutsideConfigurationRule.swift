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
        let entities = model.entities
        for configuration in model.configurations where configuration.usedWithCloudKit {
            let members = Set(configuration.memberEntityNames)
            // Membership by entity index, so a destination is tested from the model's tables
            // (a destination names the first entity of its name, as `entity(named:)` finds it).
            let isMember = entities.map { members.contains($0.name) }
            for entityIndex in entities.indices where isMember[entityIndex] {
                for declaring in model.model.ancestorIndexes(ofEntityAt: entityIndex).reversed() + [entityIndex] {
                    for relationshipIndex in 0..<entities[declaring].relationships.count {
                        let position = RelationshipPosition(entityIndex: declaring, relationshipIndex: relationshipIndex)
                        // An unknown destination is unknown_destination's business.
                        guard let destinationIndex = model.model.destinationIndex(ofRelationshipAt: position),
                              !isMember[destinationIndex]
                        else { continue }
                        let relationship = model.model.relationship(at: position)
                        guard let destination = relationship.destinationEntityName,
                              reported.insert(relationship.location).inserted
                        else { continue }
                        let declaringName = entities[declaring].name
                        violations.append(Violation(
                            message: "CloudKit integration does not allow relationships to objects that aren't sync'd: "
                                + "'\(declaringName).\(relationship.name)' points to '\(destination)', which is not in "
                                + "configuration '\(configuration.name)'; add '\(destination)' to it",
                            location: relationship.location, entityName: declaringName, propertyName: relationship.name,
                            suggestion: "add '\(destination)' to configuration '\(configuration.name)'"))
                    }
                }
            }
        }
        return violations
    }
}

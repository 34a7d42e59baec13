import DataModel

/// A uniqueness constraint on an entity synced with CloudKit.
public struct CloudKitUniqueConstraintRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_unique_constraint",
        name: "CloudKit Unique Constraint",
        summary: "An entity synced with CloudKit has a uniqueness constraint.",
        rationale: """
            CloudKit cannot enforce uniqueness across devices, so Core Data refuses constrained entities: \
            "CloudKit integration does not support unique constraints. The following entities are \
            constrained:". \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all,
        howToFix: "Remove the constraint and deduplicate in code after imports (for example on NSPersistentStoreRemoteChange notifications).",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Tag">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <uniquenessConstraints>
                        ↓<uniquenessConstraint>
                            <constraint value="name"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Tag"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Tag">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="name"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                </entity>
                <entity name="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                <configuration name="Local">
                    <memberEntity name="Tag"/>
                </configuration>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // SwiftData writes a uniqueness constraint as `@Attribute(.unique)` or `#Unique`.
        let constraintName = ModelWording(model.model).isSwiftData ? "the .unique option or #Unique macro" : "the constraint"
        return model.cloudKitEntities.flatMap { entity in
            entity.uniquenessConstraints.map { constraint in
                Violation(
                    message: "CloudKit integration does not support unique constraints: '\(entity.name)' is constrained on "
                        + "\(Naming.quotedList(constraint.propertyNames)); remove \(constraintName) and deduplicate in code",
                    location: constraint.location, entityName: entity.name)
            }
        }
    }
}

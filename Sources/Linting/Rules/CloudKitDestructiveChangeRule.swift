import DataModel
import ModelDiff

/// A change to an entity synced with CloudKit that is not an addition.
public struct CloudKitDestructiveChangeRule: MigrationRule {
    public static let description = RuleDescription(
        id: "cloudkit_destructive_change",
        name: "CloudKit Destructive Change",
        summary: "Between versions of an entity synced with CloudKit, a change that is not an addition: a removal, a rename or a type change.",
        rationale: """
            NSPersistentCloudKitContainer mirrors the model into a CloudKit schema, and once that schema is \
            deployed to production CloudKit accepts only additions: record types and fields cannot be \
            deleted or renamed, and a field's type cannot change. Apple's guidance for a model synced with \
            CloudKit is to make only additive changes (new entities, new optional attributes or attributes \
            with defaults); anything else breaks sync for devices still running the older version, or is \
            refused when the schema is deployed.

            Default severity: error. The production CloudKit schema refuses the change, and sync fails at run time.
            """,
        sources: [
            MigrationSource.cloudKitSchema.url,
            "https://developer.apple.com/documentation/cloudkit/deploying-an-icloud-container-s-schema",
            "docs/migrations.md",
        ],
        howToFix: "Keep the old element (deprecated, no longer written) and add a new one instead of removing, renaming or retyping it.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                    <attribute name="rating" optional="YES" attributeType="String"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    ↓<attribute name="text" optional="YES" attributeType="String" elementID="body"/>
                    ↓<attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="0" usesScalarValueType="YES"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                    <attribute name="pinned" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                </entity>
                <entity name="Folder" representedClassName="Folder">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                    <memberEntity name="Folder"/>
                </configuration>
                """),
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="text" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in pair: MigrationPair) -> [Violation] {
        guard pair.comparesMigration else { return [] }
        let olderSynced = pair.older.cloudKitEntityNames
        let currentSynced = pair.current.cloudKitEntityNames
        guard !olderSynced.isEmpty || !currentSynced.isEmpty else { return [] }
        return pair.diff.changes.compactMap { change in
            let synced = currentSynced.contains(change.entityName) || olderSynced.contains(change.entityName)
                || (change.element == .entity && change.oldName.map(olderSynced.contains) == true)
            guard synced, isDestructive(change) else { return nil }
            return Violation(
                "\(change.details) between \(pair.olderQuoted) and '\(pair.currentName)' is not additive, and CloudKit's "
                    + "production schema only accepts additions; keep the old element and add a new one",
                about: change, in: pair)
        }
    }

    private func isDestructive(_ change: SchemaChange) -> Bool {
        switch change.kind {
        case .added: false
        case .renamed: true
        case .removed: change.element == .entity || (change.isPropertyChange && change.element != .fetchedProperty
            && !change.details.hasPrefix("transient"))
        case .changed: change.aspect == .attributeType || change.aspect == .destinationEntity
        }
    }
}

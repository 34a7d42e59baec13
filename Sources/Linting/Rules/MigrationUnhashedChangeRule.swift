import DataModel
import ModelDiff

/// A change that alters how stored values are read but enters no version hash, so existing
/// stores are opened without a migration.
public struct MigrationUnhashedChangeRule: MigrationRule {
    public static let description = RuleDescription(
        id: "migration_unhashed_change",
        name: "Migration Unhashed Change",
        summary: "A change that alters how stored values are read (a named value transformer replaced) but changes no version hash, so existing stores are not migrated.",
        rationale: """
            Core Data decides whether a store needs migrating by comparing version hashes. Apple documents \
            their inputs: for an attribute, its name, optionality, transience, read-only flag, type and \
            `versionHashModifier`. The value transformer of a transformable attribute is not among them, yet \
            it decides how the stored bytes are read back: after replacing a named transformer the store opens \
            without any migration and old values are decoded by the new one. Moving from the default keyed \
            unarchiver to NSSecureUnarchiveFromData (or a subclass, the usual custom name) reads the same \
            archives and is not reported. Apple's \
            answer is `versionHashModifier`: "important in cases where the attributes of a property are \
            unchanged but the format or content of its data are changed".

            Default severity: warning. The store opens and nothing fails at once; old values may be \
            decoded wrongly, which depends on what the new transformer does with them.
            """,
        sources: [
            MigrationSource.attributeVersionHash.url,
            MigrationSource.propertyVersionHash.url,
            "https://developer.apple.com/documentation/coredata/nspropertydescription/versionhashmodifier",
        ],
        howToFix: """
            Set a new versionHashModifier on the attribute (Xcode: Versioning > Hash Modifier) and migrate the values \
            with a mapping model, or keep the transformer able to read the old format.
            """,
        category: .migration,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="TagListArchiveTransformer" customClassName="[String]"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    ↓<attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="TagListJSONTransformer" customClassName="[String]"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="TagListArchiveTransformer" customClassName="[String]"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="TagListJSONTransformer" customClassName="[String]" versionHashModifier="tag-list"/>
                </entity>
                """),
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="tags" optional="YES" attributeType="Transformable" customClassName="NSArray"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in pair: MigrationPair) -> [Violation] {
        guard pair.comparesMigration else { return [] }
        return pair.diff.changes.filter(\.altersStoredValuesUnhashed).map { change in
            let name = "'\(change.entityName).\(change.elementName ?? "")'"
            return Violation(
                "\(change.details) between \(pair.olderQuoted) and '\(pair.currentName)' changes how stored values "
                    + "are read but no version hash, so stores \(pair.olderQuoted) wrote are opened without migrating; "
                    + "set a new versionHashModifier on \(name)",
                about: change, in: pair, suggestion: "set versionHashModifier on \(name)")
        }
    }
}

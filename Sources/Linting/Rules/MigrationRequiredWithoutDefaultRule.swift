import DataModel
import ModelDiff

/// A required attribute that rows of an older version have no value for, with no default value.
public struct MigrationRequiredWithoutDefaultRule: MigrationRule {
    public static let description = RuleDescription(
        id: "migration_required_without_default",
        name: "Migration Required Without Default",
        summary: "An attribute becomes required, or a required attribute is added, with no default value for the rows an older version wrote.",
        rationale: """
            Apple lists "an optional attribute becoming non-optional, and defining a default value" among \
            the changes lightweight migration handles: the default is what existing rows get. Without one, \
            Core Data still infers the mapping, but a migrated row with no value for a required attribute \
            fails validation (NSValidationMissingMandatoryPropertyError, 1570, reported as a failed \
            migration, 134110), so the app cannot open its store on the user's device. For an attribute \
            added as required (or made persistent) that is every existing row; for an optional attribute \
            made required it is every row that holds nil.

            Default severity: error. The model cannot tell whether a store holds such a row, and one is \
            enough for the migration to fail at run time (134110): an added attribute fails any store with \
            a row of the entity, and an attribute made required fails any store where it was ever left \
            empty, which its having been optional allowed. A default value (or keeping it optional) makes \
            the migration safe whatever the store holds.
            """,
        sources: [
            MigrationSource.lightweightMigration.url,
            "docs/migrations.md",
        ],
        howToFix: "Give the attribute a default value in the current version, or make it optional.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    ↓<attribute name="createdAt" attributeType="Date" usesScalarValueType="NO"/>
                    ↓<attribute name="title" attributeType="String"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="pinned" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                    <attribute name="title" attributeType="String" defaultValueString="Untitled"/>
                    <attribute name="cache" transient="YES" attributeType="String"/>
                </entity>
                """),
            // A derived attribute's value is computed by Core Data, not supplied by old rows.
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="refreshed" attributeType="Date" derived="YES" derivationExpression="now()" usesScalarValueType="NO"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in pair: MigrationPair) -> [Violation] {
        guard pair.comparesMigration, !pair.diff.hasMappingModel else { return [] }
        return pair.diff.changes.compactMap { change in
            guard let failure = change.failsWhen else { return nil }
            let name = "'\(change.entityName).\(change.elementName ?? "")'"
            // Added (or made persistent): no stored row has a value. Made required: only rows that
            // hold nil fail, which the model cannot tell.
            let rows = switch failure {
            case .everyRow: "rows written by \(pair.olderQuoted) have no value for it, so the migration fails (134110) "
                + "if the store holds any"
            case .rowsWithoutValue: "rows written by \(pair.olderQuoted) that have no value for it make the migration fail (134110)"
            }
            return Violation(
                "\(name) is required in '\(pair.currentName)' with no default value; \(rows); "
                    + "give it a default value or make it optional",
                about: change, in: pair, suggestion: "add a default value to \(name)")
        }
    }
}

import DataModel
import ModelDiff

/// A change between an older version and the current one that lightweight migration cannot
/// infer, with no mapping model for the pair.
public struct MigrationNotInferableRule: MigrationRule {
    public static let description = RuleDescription(
        id: "migration_not_inferable",
        name: "Migration Not Inferable",
        summary: "A change from an older version to the current one that lightweight migration cannot infer, with no mapping model for the pair.",
        rationale: """
            Core Data opens a store written by an older version by migrating it to the current one. \
            Without a mapping model it infers one, which Apple documents only for obvious patterns: \
            adding or removing attributes, relationships and entities, renaming them through a renaming \
            identifier, optional ↔ required with a default value, to-one ↔ to-many and ordering changes, \
            and moving properties within a hierarchy. Beyond that list, apps are observed to ship type \
            changes between binary numbers (Integer 16, 32, 64, Float, Double) with an inferred mapping, \
            which converts the stored values: WooCommerce's `Model 2 → Model 3` (Integer 16 → Integer 64) \
            and `Model 87 → Model 88` (Integer 64 → Double; its migration test reads a stored 1 back as \
            1.0), so those are not reported (a narrowing one is, by migration_drops_data). Any other change \
            of attribute type (to or from Decimal, String, Date, Binary, UUID, URI, Boolean, \
            Transformable), a relationship pointed at another entity, or two existing hierarchies merged \
            under a common parent is none of these: the store cannot be opened and the app gets \
            NSMigrationMissingMappingModelError (134140) on the user's device. The finding is on the \
            current version's element and names the older version, or every older version that shares the \
            cause (one finding per cause). On the stepwise path (`migration: {path: stepwise}`, an app \
            that migrates each version to the next) each step is judged instead, with the mapping model \
            for that step, and the finding is on the step's newer version.

            Default severity: error. Without a mapping model the store cannot be opened at run time (134140).
            """,
        sources: [
            MigrationSource.lightweightMigration.url,
            MigrationSource.versioningGuide.url,
            MigrationSource.observedMigrations.url,
            "docs/migrations.md",
        ],
        howToFix: """
            Keep the old element and add a new one (e.g. a new attribute of the new type, filled in code after \
            the migration), or add a mapping model (.xcmappingmodel) from the older version to the current one.
            """,
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            // WooCommerce ships a mapping model for its Integer 64 → Decimal steps.
            RuleExample(older: """
                <entity name="Order" representedClassName="Order">
                    <attribute name="total" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                </entity>
                """, current: """
                <entity name="Order" representedClassName="Order">
                    ↓<attribute name="total" optional="YES" attributeType="Decimal"/>
                </entity>
                """),
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="rating" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    ↓<attribute name="rating" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                </entity>
                """),
            RuleExample(older: """
                <entity name="Photo" representedClassName="Photo">
                    <attribute name="caption" optional="YES" attributeType="String"/>
                </entity>
                <entity name="Video" representedClassName="Video">
                    <attribute name="caption" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Media" representedClassName="Media" isAbstract="YES">
                    <attribute name="caption" optional="YES" attributeType="String"/>
                </entity>
                ↓<entity name="Photo" representedClassName="Photo" parentEntity="Media"/>
                ↓<entity name="Video" representedClassName="Video" parentEntity="Media"/>
                """),
        ],
        nonTriggeringExamples: [
            // Observed: an inferred mapping converts between binary numbers (WooCommerce Model 87 → 88).
            RuleExample(older: """
                <entity name="OrderGiftCard" representedClassName="OrderGiftCard">
                    <attribute name="amount" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                </entity>
                """, current: """
                <entity name="OrderGiftCard" representedClassName="OrderGiftCard">
                    <attribute name="amount" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                </entity>
                """),
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="rating" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="rating" optional="YES" attributeType="String"/>
                    <attribute name="score" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                </entity>
                """),
            RuleExample(older: """
                <entity name="Car" representedClassName="Car">
                    <attribute name="color" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Automobile" representedClassName="Automobile" elementID="Car">
                    <attribute name="paintColor" optional="YES" attributeType="String" elementID="color"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in pair: MigrationPair) -> [Violation] {
        guard pair.comparesMigration, !pair.diff.hasMappingModel else { return [] }
        // A missing default is inferable (migration_required_without_default reports it).
        return pair.diff.changes.filter { !$0.lightweight }.map { change in
            Violation(
                "migrating stores of \(pair.olderQuoted) to '\(pair.currentName)': \(change.details) cannot be inferred "
                    + "by lightweight migration (134140); keep the old element and add a new one, "
                    + "or add a mapping model from \(pair.olderQuoted) to '\(pair.currentName)'",
                about: change, in: pair,
                suggestion: "add a mapping model '\(pair.olderName) to \(pair.currentName).xcmappingmodel'")
        }
    }
}

import DataModel
import ModelDiff

/// A stored property or entity of an older version that the current version no longer has,
/// with nothing renamed from it.
public struct MigrationDropsDataRule: MigrationRule {
    public static let description = RuleDescription(
        id: "migration_drops_data",
        name: "Migration Drops Data",
        summary: "A persistent property or entity disappears between an older version and the current one and nothing is renamed from it, or a narrowing numeric type change truncates its stored values.",
        rationale: """
            Lightweight migration matches elements by name, or by the renaming identifier set on the \
            new element (Xcode's "Renaming ID", written as `elementID`). A property renamed without one \
            is, to Core Data, one property removed and another added: the migration succeeds and every \
            stored value of the old property is silently dropped. The same holds for entities, for a \
            to-many relationship made to-one (one destination is kept), for a concrete entity made \
            abstract, and for a narrowing numeric type change (Double → Integer, Integer 64 → Integer 16, \
            Double → Float): the mapping is inferred and the values converted, as apps are observed to \
            rely on, but what the new type cannot hold — a fraction, a wider integer — is truncated. An entity whose parent is removed (even an abstract one, which has no rows of its \
            own) or that leaves its hierarchy loses what it inherited, unless the current version keeps \
            it. Removing a transient property loses nothing and is not reported.

            Default severity: warning. The migration succeeds and the app runs; what is lost is data, \
            which a deliberate removal intends.
            """,
        sources: [
            MigrationSource.lightweightMigration.url,
            MigrationSource.versioningGuide.url,
            MigrationSource.observedMigrations.url,
            "docs/migrations.md",
        ],
        howToFix: """
            If the data moved to a new element, set the new element's Renaming ID to the old name; for a narrowing \
            type change, keep a type that holds every stored value or add a mapping model that converts them as \
            intended; if the loss is intended, disable this finding for the element.
            """,
        category: .migration,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                    <attribute name="cache" optional="YES" transient="YES" attributeType="String"/>
                </entity>
                """, current: """
                ↓<entity name="Note" representedClassName="Note">
                    <attribute name="text" optional="YES" attributeType="String"/>
                </entity>
                """),
            // An abstract parent has no rows, but its children's rows held what they inherited.
            RuleExample(older: """
                <entity name="Region" representedClassName="Region" isAbstract="YES">
                    <attribute name="updatedAt" optional="YES" attributeType="Date"/>
                </entity>
                <entity name="Continent" representedClassName="Continent" parentEntity="Region">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """, current: """
                ↓<entity name="Continent" representedClassName="Continent">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
            // A narrowing type change: inferred, and the fractions are truncated.
            RuleExample(older: """
                <entity name="OrderGiftCard" representedClassName="OrderGiftCard">
                    <attribute name="amount" optional="YES" attributeType="Double" usesScalarValueType="YES"/>
                </entity>
                """, current: """
                <entity name="OrderGiftCard" representedClassName="OrderGiftCard">
                    ↓<attribute name="amount" optional="YES" attributeType="Integer 32" usesScalarValueType="YES"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            // Widening keeps every value (observed: WooCommerce Model 2 → 3, Integer 16 → Integer 64).
            RuleExample(older: """
                <entity name="OrderItem" representedClassName="OrderItem">
                    <attribute name="quantity" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                </entity>
                """, current: """
                <entity name="OrderItem" representedClassName="OrderItem">
                    <attribute name="quantity" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                </entity>
                """),
            RuleExample(older: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="body" optional="YES" attributeType="String"/>
                    <attribute name="cache" optional="YES" transient="YES" attributeType="String"/>
                </entity>
                """, current: """
                <entity name="Note" representedClassName="Note">
                    <attribute name="text" optional="YES" attributeType="String" elementID="body"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in pair: MigrationPair) -> [Violation] {
        // A mapping model for the pair says what becomes of every element: the developer decided.
        guard pair.comparesMigration, !pair.diff.hasMappingModel else { return [] }
        let changes = pair.diff.changes
        return changes.filter(\.dataLoss).map { change in
            var suggestion: String?
            if change.kind == .removed, change.isPropertyChange, let removedName = change.elementName,
               let candidate = replacement(for: change, among: changes, in: pair) {
                suggestion = "if '\(candidate)' holds what '\(removedName)' held, set its Renaming ID to '\(removedName)' "
                    + "(elementID=\"\(removedName)\")"
            }
            return Violation(
                "migrating stores of \(pair.olderQuoted) to '\(pair.currentName)' drops data: \(change.details)"
                    + (suggestion == nil ? "" : "; \(suggestion!)"),
                about: change, in: pair, suggestion: suggestion)
        }
    }

    /// A property of the same kind (and attribute type) added to the same entity: the likely
    /// new name of a removed property.
    private func replacement(for removed: SchemaChange, among changes: [SchemaChange], in pair: MigrationPair) -> String? {
        let removedType = pair.older.entity(named: removed.entityName).flatMap { entity in
            entity.attributes.first { $0.name == removed.elementName }?.attributeType
        } ?? pair.older.entities.lazy.compactMap { $0.attributes.first { $0.name == removed.elementName } }.first?.attributeType
        let candidates = changes.filter { added in
            guard added.kind == .added, added.element == removed.element, added.entityName == removed.entityName,
                  let name = added.elementName else { return false }
            guard removed.element == .attribute else {
                // A relationship: the same destination (by its name in the current version).
                let oldDestination = pair.older.entity(named: removed.entityName)?.relationships
                    .first { $0.name == removed.elementName }?.destinationEntityName
                    ?? pair.older.entities.lazy.compactMap { $0.relationships.first { $0.name == removed.elementName } }
                        .first?.destinationEntityName
                let newDestination = pair.current.entity(named: added.entityName)?.relationships
                    .first { $0.name == name }?.destinationEntityName
                return oldDestination != nil && oldDestination == newDestination
            }
            return pair.current.entity(named: added.entityName)?.attributes.first { $0.name == name }?.attributeType == removedType
        }
        return candidates.count == 1 ? candidates[0].elementName : nil
    }
}

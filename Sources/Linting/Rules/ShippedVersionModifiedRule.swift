import DataModel
import ModelDiff

/// A version other than the current one that differs from what a base revision (or the lock
/// file) holds: a shipped version edited in place.
public struct ShippedVersionModifiedRule: MigrationRule {
    public static let description = RuleDescription(
        id: "shipped_version_modified",
        name: "Shipped Version Modified",
        summary: "A model version other than the current one changed since the base revision (git HEAD, --since REV, or the versions lock file) in a way that changes its version hash.",
        rationale: """
            A store records the version hashes of the model that wrote it. When that model version is \
            edited after shipping, the stores it wrote match no version in the app any more: Core Data \
            cannot find a source model to migrate from and fails with \
            NSPersistentStoreIncompatibleVersionHashError (134100) or a missing source model (134130). A \
            shipped version must stay as it was; changes belong in a new version. momlint compares each \
            non-current version with the base revision: in a git work tree the working tree and the index \
            against `HEAD` (what a pre-commit hook needs), a revision given with `--since` in CI, or the \
            lock file `momlint versions --lock` writes. Only changes that alter a version hash are reported.

            Default severity: error. Stores written by the shipped version no longer open at run time (134100).
            """,
        sources: [
            MigrationSource.entityVersionHash.url,
            "https://developer.apple.com/documentation/coredata/nspersistentstoreincompatibleversionhasherror",
            "docs/migrations.md",
        ],
        howToFix: "Revert the older version to what was shipped, and make the change in a new model version.",
        category: .migration,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample(older: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    ↓<attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                </entity>
                """, current: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                </entity>
                """, olderAtBase: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample(older: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String" defaultValueString="Untitled"/>
                </entity>
                """, current: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                    <attribute name="done" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                </entity>
                """, olderAtBase: """
                <entity name="Task" representedClassName="Task">
                    <attribute name="name" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in pair: MigrationPair) -> [Violation] {
        guard let base = pair.olderAtBase else { return [] }
        let baseName = pair.baseName ?? "the base revision"
        return SchemaDiff(from: base, to: pair.older).changes.filter(\.hashChanging).map { change in
            let location = change.newLocation ?? pair.older.entity(named: change.entityName)?.location ?? pair.older.location
            return Violation(
                message: "'\(pair.olderName)' is not the current version but changed since \(baseName): \(change.details); "
                    + "stores it wrote no longer match any version (134100); revert it and make the change in a new version",
                location: location, entityName: change.entityName, propertyName: change.propertyName,
                suggestion: "revert '\(pair.olderName)' to \(baseName)")
        }
    }
}

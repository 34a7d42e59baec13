/// The documents a migration classification rests on. Each case names one Apple page (or says
/// that the classification is momlint's inference); `docs/migrations.md` explains each in words.
public enum MigrationSource: String, Hashable, Sendable, Codable, CaseIterable {
    /// NSEntityDescription.versionHash: the entity's name, its superentity's hash, whether it is
    /// abstract, its properties' hashes and its versionHashModifier.
    case entityVersionHash
    /// NSPropertyDescription.versionHash: the name, isOptional, isTransient, isReadOnly and the
    /// versionHashModifier.
    case propertyVersionHash
    /// NSAttributeDescription.versionHash: the property's inputs and the attribute type.
    case attributeVersionHash
    /// NSRelationshipDescription.versionHash: the property's inputs, the destination entity, the
    /// inverse relationship, minCount and maxCount.
    case relationshipVersionHash
    /// "Migrating your data model automatically": the patterns an inferred mapping model covers.
    case lightweightMigration
    /// Core Data Model Versioning and Data Migration Programming Guide, "Lightweight Migration":
    /// the same list, with relationship and hierarchy changes and the rule against merging
    /// entity hierarchies.
    case versioningGuide
    /// Migrations real apps ship and test, observed in their repositories (docs/migrations.md,
    /// "Observed migrations"): numeric attribute type changes migrated by an inferred mapping.
    case observedMigrations
    /// Not stated by Apple: momlint's inference from the documented inputs (docs/migrations.md
    /// says why for each).
    case inferred
    /// momlint's computation of Core Data's version hashes (docs/version-hashes.md), which
    /// reproduces the hashes Core Data wrote into real stores: whether the change alters a hash
    /// is computed, not looked up in a table.
    case computedVersionHash
    /// "Creating a Core Data model for CloudKit" / "Deploying the schema to production": CloudKit's
    /// production schema only accepts additions.
    case cloudKitSchema

    public var url: String {
        switch self {
        case .entityVersionHash:
            "https://developer.apple.com/documentation/coredata/nsentitydescription/versionhash"
        case .propertyVersionHash:
            "https://developer.apple.com/documentation/coredata/nspropertydescription/versionhash"
        case .attributeVersionHash:
            "https://developer.apple.com/documentation/coredata/nsattributedescription/versionhash"
        case .relationshipVersionHash:
            "https://developer.apple.com/documentation/coredata/nsrelationshipdescription/versionhash"
        case .lightweightMigration:
            "https://developer.apple.com/documentation/coredata/migrating-your-data-model-automatically"
        case .versioningGuide:
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreDataVersioning/Articles/vmLightweightMigration.html"
        case .observedMigrations:
            "docs/migrations.md#observed-migrations"
        case .inferred:
            "docs/migrations.md"
        case .computedVersionHash:
            "docs/version-hashes.md"
        case .cloudKitSchema:
            "https://developer.apple.com/documentation/coredata/creating-a-core-data-model-for-cloudkit"
        }
    }
}

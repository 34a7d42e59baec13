import DataModel

/// One difference between two versions of a model, classified for migration.
///
/// Every classification cites its source in `MigrationSource`; `docs/migrations.md` explains
/// them in words. A change is a value: the rules, `momlint diff` and (later) a store's own
/// migration all read the same list.
public struct SchemaChange: Hashable, Sendable {
    public enum Kind: String, Sendable, Codable, CaseIterable {
        case added, removed, renamed, changed
    }

    /// What kind of element changed.
    public enum Element: String, Sendable, Codable, CaseIterable {
        case entity, attribute, relationship, fetchedProperty, fetchIndex, uniquenessConstraint
    }

    /// For a `changed` change: which facet of the element differs.
    public enum Aspect: String, Sendable, Codable, CaseIterable {
        // Entities
        case parentEntity, isAbstract, representedClassName
        // Every property
        case isOptional, isTransient, versionHashModifier
        // Attributes
        case attributeType, defaultValue, valueTransformerName, customClassName
        case allowsExternalBinaryDataStorage, derivation, isIndexed, validation, preserveAfterDeletion
        // Relationships
        case destinationEntity, inverseRelationship, isToMany, isOrdered, count, deletionRule
        // Fetch indexes
        case indexElements
    }

    public var kind: Kind
    public var element: Element
    /// The entity's name in the newer version, or in the older one when it was removed.
    public var entityName: String
    /// The element's name (property, fetch index; a uniqueness constraint's members joined by
    /// ","); nil for an entity-level change.
    public var elementName: String?
    /// For `renamed`: the name in the older version.
    public var oldName: String?
    public var aspect: Aspect?
    public var oldValue: String?
    public var newValue: String?
    /// One line, lowercase, quoting the element.
    public var details: String
    /// Does it change a version hash, so that stores the older version wrote no longer match?
    /// Computed (`VersionHasher`): the older element with only this change applied is hashed
    /// and compared, and no change of an entity whose hash stays the same counts. Only where
    /// an element cannot be hashed (an unknown attribute type) does the documented table decide.
    public var hashChanging: Bool
    /// Can Core Data infer a mapping for it (lightweight migration)?
    public var lightweight: Bool
    /// Does migrating lose stored values?
    public var dataLoss: Bool
    /// A change that alters how stored values are read while no version hash changes: existing
    /// stores are opened without any migration.
    public var altersStoredValuesUnhashed = false
    /// Which stored rows make the migration fail, for a required attribute with no default
    /// value that rows of the older version may have no value for.
    public enum MissingValueFailure: String, Sendable, Codable, CaseIterable {
        /// Added as required, or made persistent: no stored row has a value, so any row of the
        /// entity makes the migration fail.
        case everyRow = "every row"
        /// Made required: rows that hold nil for it make the migration fail.
        case rowsWithoutValue = "rows without a value"
    }

    /// A required attribute with no default that stored rows may have no value for (added, made
    /// required or made persistent). Core Data still infers the mapping (the change is
    /// `lightweight`), but the migration fails validation (134110) on such a row; nil otherwise.
    public var failsWhen: MissingValueFailure?
    /// The attribute needs a default value for the migration not to fail (`failsWhen`).
    public var needsDefaultValue: Bool { failsWhen != nil }
    /// Where the classification comes from.
    public var sources: [MigrationSource]
    /// The element in the older version (nil when added).
    public var oldLocation: SourceLocation?
    /// The element in the newer version (nil when removed).
    public var newLocation: SourceLocation?

    /// True for an attribute, relationship or fetched property.
    public var isPropertyChange: Bool {
        element == .attribute || element == .relationship || element == .fetchedProperty
    }

    /// The property's name for a property change, else nil (entity, index and constraint changes).
    public var propertyName: String? { isPropertyChange ? elementName : nil }

    /// Where a finding about this change belongs: the newer version's element, or, for a
    /// removal, the newer version's entity (passed in), or the older element.
    public func location(orEntityIn newer: Model) -> SourceLocation? {
        if let newLocation { return newLocation }
        if let entity = newer.entity(named: entityName) { return entity.location }
        return nil
    }
}

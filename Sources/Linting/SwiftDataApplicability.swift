/// Whether a rule can find anything in a model read from SwiftData `@Model` classes
/// (`momlint lint --swiftdata`), and why: printed on every rule page.
///
/// Every rule that applies runs on such a model unchanged; a rule that does not apply is one
/// whose subject a SwiftData schema cannot express (an abstract entity, an ordered relationship,
/// a model version file). `LintEngine` does not run those on a SwiftData model, so what a rule
/// page says is what runs; `SwiftDataApplicabilityTests` checks that each rule said to apply
/// does fire on some SwiftData source, and that no rule said not to apply would find anything
/// in the sources it was tried on.
public enum SwiftDataApplicability: Hashable, Sendable {
    /// The rule checks SwiftData models; the text says what it looks at in Swift terms.
    case applies(String)
    /// The rule cannot fire on a SwiftData model; the text says why.
    case doesNotApply(String)

    /// The entry for the rule with this id, from `SwiftDataApplicability.byRuleID`; rules
    /// missing there (the `--sources` rules among them) do not apply.
    public static func forRule(id: String) -> SwiftDataApplicability {
        byRuleID[id] ?? .doesNotApply(
            "It checks what only a Core Data model file or hand-written NSManagedObject subclasses can hold.")
    }

    /// True when the table decides for the rule (a test requires it of every rule, so a new
    /// rule cannot fall to the default unnoticed).
    public static func isListed(id: String) -> Bool {
        byRuleID[id] != nil
    }

    private static let cloudKit = " Checked when the sources build a `ModelConfiguration` with a `cloudKitDatabase` other "
        + "than `.none`, or when `.momlint.yml` sets `swiftdata_cloudkit: true`."

    /// Kept in one table rather than in each rule's file, so that the rules stay about Core Data.
    static let byRuleID: [String: SwiftDataApplicability] = [
        "abstract_without_subentities": .doesNotApply("SwiftData has no abstract entities."),
        "ambiguous_inverse": .applies("Two `@Relationship(inverse:)` key paths naming the same property."),
        "cascade_cycle": .applies("`@Relationship(deleteRule: .cascade)` chains that loop through a shared model."),
        "cascade_into_deny": .applies("A `.cascade` chain that reaches a `.deny` relationship."),
        "cascade_to_shared": .applies("`.cascade` towards a model other models also point to."),
        "cloudkit_deny_rule": .applies("`@Relationship(deleteRule: .deny)` in a model synced with CloudKit." + cloudKit),
        "cloudkit_missing_inverse": .applies(
            "A relationship with no inverse, declared or inferred by SwiftData, in a model synced with CloudKit." + cloudKit),
        "cloudkit_ordered_relationship": .doesNotApply("SwiftData relationships are never ordered."),
        "cloudkit_relationship_outside_configuration": .doesNotApply(
            "momlint reads one SwiftData schema per folder, without configurations."),
        "cloudkit_required_attribute": .applies(
            "A stored property that is neither optional nor given an initial value, in a model synced with CloudKit." + cloudKit),
        "cloudkit_required_relationship": .applies(
            "A non-optional to-one relationship (`var owner: Owner`) in a model synced with CloudKit." + cloudKit),
        "cloudkit_unique_constraint": .applies("`@Attribute(.unique)` or `#Unique` in a model synced with CloudKit." + cloudKit),
        "cloudkit_unsupported_attribute_type": .doesNotApply("SwiftData has no Undefined or ObjectID attribute type."),
        "constraint_invalid_property": .applies("`#Unique` or `#Index` naming a property that is not stored."),
        "default_value_invalid": .applies("A literal initial value the property's type cannot hold."),
        "duplicate_property": .applies("A property declared twice in one model or its `@Model` superclass."),
        "entity_name_case": .applies("A `@Model` class whose name starts with a lowercase letter."),
        "external_storage_on_non_binary": .applies("`@Attribute(.externalStorage)` on a property that is not `Data`."),
        "invalid_current_version": .doesNotApply("A SwiftData schema has no `.xccurrentversion` file."),
        "invalid_parent_entity": .doesNotApply(
            "A `@Model` class's superclass is one the compiler knows, and Swift rejects circular inheritance itself."),
        "invalid_relationship_count": .applies("`minimumModelCount` above `maximumModelCount`, or counts on a to-one."),
        "inverse_mismatch": .applies("`@Relationship(inverse:)` naming a property that does not point back."),
        "missing_inverse": .applies("A relationship with no inverse; inverses SwiftData infers itself are not reported."),
        "mutual_deny": .applies("Both ends of a relationship using `.deny`."),
        "no_action_delete_rule": .applies("`@Relationship(deleteRule: .noAction)` with an inverse left dangling."),
        "nullify_required_inverse": .applies("`.nullify` where the inverse is a non-optional to-one."),
        "property_name_case": .applies("A stored property whose name starts with an uppercase letter."),
        "reserved_name": .applies("A stored property named like an NSManagedObject or NSObject member (`description`)."),
        "too_many_properties": .applies("A `@Model` class with more stored properties than the limit."),
        "transformable_without_transformer": .applies(
            "`@Attribute(.transformable(by: \"NSKeyedUnarchiveFromData\"))` or another name of Foundation's insecure "
                + "unarchiving transformers: SwiftData stores the attribute in Core Data with the transformer named."),
        "transient_inverse_mismatch": .doesNotApply("`@Transient` properties are not part of the schema."),
        "undefined_attribute_type": .doesNotApply("Every stored property has a Swift type."),
        "unknown_destination": .applies("`@Relationship` on a property whose type is not a `@Model` class of the sources."),
        "unsupported_attribute_type": .doesNotApply("Attribute types come from Swift types, never from a misspelt name."),
        // The migration rules compare versions of a model bundle; a SwiftData folder's
        // `VersionedSchema`s are compared by the rules below, with the same `SchemaDiff`.
        "migration_not_inferable": .doesNotApply(migrationRule),
        "migration_required_without_default": .doesNotApply(migrationRule),
        "migration_drops_data": .doesNotApply(migrationRule),
        "migration_unhashed_change": .doesNotApply(migrationRule),
        "shipped_version_modified": .applies(
            "A `VersionedSchema` other than the latest whose Core Data version hashes differ from the base revision's "
                + "(git `HEAD`, `--since REV`) or from the lock file `momlint versions --swiftdata DIR --lock` writes."),
        "cloudkit_destructive_change": .doesNotApply(migrationRule),
        "schema_versions_identical": .applies("Two schemas of a `SchemaMigrationPlan` that compile to the same Core Data model."),
        "schema_version_uses_live_model": .applies(
            "A `VersionedSchema` other than the latest that lists or reaches a `@Model` class declared outside every version."),
        "migration_stage_not_inferable": .applies(
            "A `MigrationStage` whose change between its two `VersionedSchema`s Core Data cannot migrate."),
        "migration_plan_incomplete": .applies(
            "A `SchemaMigrationPlan` whose `schemas`, `stages` or `ModelContainer` do not form one path to the latest version."),
        "schema_version_identifier_reused": .applies("Two `VersionedSchema`s with one `versionIdentifier`."),
        // The `--sources` rules compare hand-written subclasses with a model file.
        "managed_property_not_in_model": .doesNotApply(sourcesRule),
        "model_property_not_in_class": .doesNotApply(sourcesRule),
        "optionality_mismatch": .doesNotApply(sourcesRule),
        "scalar_type_mismatch": .doesNotApply(sourcesRule),
        "unsigned_integer_attribute": .applies(
            "A stored property declared `UInt`, `UInt8`, `UInt16`, `UInt32` or `UInt64` (a model file cannot declare one)."),
        "unsigned_managed_property": .doesNotApply(sourcesRule),
    ]

    private static let migrationRule = "It compares versions of an .xcdatamodeld bundle; a SwiftData folder's "
        + "`VersionedSchema`s and migration stages are judged by `migration_stage_not_inferable` and the other "
        + "SwiftData migration rules, with the same classification."

    private static let sourcesRule = "It compares hand-written NSManagedObject subclasses with a Core Data model; "
        + "a SwiftData `@Model` class is itself the model."


    /// True when the rule runs on a SwiftData model (`LintEngine` skips the others there).
    public var applies: Bool {
        if case .applies = self { return true }
        return false
    }

    /// One line for a rule page or `momlint rules ID`.
    public var text: String {
        switch self {
        case .applies(let what): "applies. \(what)"
        case .doesNotApply(let why): "does not apply. \(why)"
        }
    }
}

import Linting
import Testing

@Suite("Rule catalogue")
struct RuleCatalogueTests {
    /// The ids and default severities of issue 3 (`ambiguous_inverse` became a warning in issue 20:
    /// models with one build). Users' CI configurations and baselines depend on them, so a rename
    /// or a severity change must fail here first. `unsigned_integer_attribute` came with issue 18.
    static let published: [(id: String, severity: Severity)] = [
        ("missing_inverse", .warning), ("inverse_mismatch", .error), ("ambiguous_inverse", .warning),
        ("unknown_destination", .error), ("invalid_relationship_count", .error),
        ("reserved_name", .error), ("entity_name_case", .warning), ("property_name_case", .warning),
        ("duplicate_property", .error),
        ("unsupported_attribute_type", .error), ("undefined_attribute_type", .error),
        ("default_value_invalid", .error), ("transformable_without_transformer", .warning),
        ("external_storage_on_non_binary", .warning), ("unsigned_integer_attribute", .warning),
        ("too_many_properties", .warning),
        ("transient_inverse_mismatch", .error),
        ("no_action_delete_rule", .warning), ("cascade_to_shared", .warning), ("cascade_cycle", .warning),
        ("mutual_deny", .warning), ("nullify_required_inverse", .warning), ("cascade_into_deny", .warning),
        ("abstract_without_subentities", .warning), ("invalid_parent_entity", .error),
        ("constraint_invalid_property", .error), ("invalid_current_version", .error),
        ("cloudkit_unique_constraint", .error), ("cloudkit_required_attribute", .error),
        ("cloudkit_required_relationship", .error), ("cloudkit_missing_inverse", .error),
        ("cloudkit_deny_rule", .error), ("cloudkit_ordered_relationship", .error),
        ("cloudkit_unsupported_attribute_type", .error), ("cloudkit_relationship_outside_configuration", .error),
        ("migration_not_inferable", .error), ("migration_required_without_default", .error),
        ("migration_drops_data", .warning), ("migration_unhashed_change", .warning),
        ("shipped_version_modified", .error), ("cloudkit_destructive_change", .error),
        // Issue 37: a SwiftData folder's VersionedSchemas and migration plans.
        ("schema_versions_identical", .error), ("schema_version_uses_live_model", .warning),
        ("migration_stage_not_inferable", .error), ("migration_plan_incomplete", .error),
        ("schema_version_identifier_reused", .error),
    ]

    @Test func catalogueHoldsExactlyThePublishedRules() {
        let catalogue = RuleCatalogue.all.map { $0.description }
        #expect(catalogue.map(\.id) == Self.published.map(\.id))
        for (id, severity) in Self.published {
            #expect(RuleCatalogue.rule(id: id)?.description.defaultSeverity == severity, "severity of '\(id)'")
        }
    }

    /// The engine finds the rules over two versions through `asMigrationRule`, and the rules over
    /// a SwiftData folder's versioned schemas through `asSchemaVersionsRule`, which the protocols
    /// give (not a dynamic cast): together, exactly the rules of the Migration category.
    @Test func theMigrationRulesAreTheMigrationCategory() {
        for rule in RuleCatalogue.all {
            let overVersions = rule.init().asMigrationRule != nil || rule.init().asSchemaVersionsRule != nil
            #expect(overVersions == (rule.description.category == .migration), "\(rule.description.id)")
        }
        #expect(RuleCatalogue.all.filter { $0.init().asMigrationRule != nil }.count == 6)
        // The five SwiftData rules, and shipped_version_modified, which checks both.
        #expect(RuleCatalogue.all.filter { $0.init().asSchemaVersionsRule != nil }.map { $0.description.id } == [
            "shipped_version_modified", "schema_versions_identical", "schema_version_uses_live_model",
            "migration_stage_not_inferable", "migration_plan_incomplete", "schema_version_identifier_reused",
        ])
    }

    @Test func idsAreUniqueSnakeCase() {
        let ids = RuleCatalogue.all.map { $0.description.id }
        #expect(Set(ids).count == ids.count)
        for id in ids {
            #expect(id.allSatisfy { $0.isLowercase || $0 == "_" }, "'\(id)' is not snake_case")
        }
    }

    @Test func everyRuleSaysWhetherItAppliesToSwiftData() {
        for rule in RuleCatalogue.all {
            #expect(SwiftDataApplicability.isListed(id: rule.description.id), "\(rule.description.id)")
        }
        #expect(RuleDocumentation.page(for: MissingInverseRule.description).contains(
            "**SwiftData** (`momlint lint --swiftdata`): applies. "))
    }

    @Test func everyRuleIsDocumented() {
        for rule in RuleCatalogue.all {
            let description = rule.description
            #expect(!description.name.isEmpty && !description.summary.isEmpty, "\(description.id)")
            #expect(!description.rationale.isEmpty && !description.howToFix.isEmpty, "\(description.id)")
            #expect(!description.sources.isEmpty, "'\(description.id)' cites no source")
        }
    }

    /// Severity means "fails": each rule's page says why its default is an error or a warning.
    @Test func everyRuleSaysWhyItsSeverityIsWhatItIs() {
        for rule in RuleCatalogue.all {
            let description = rule.description
            #expect(description.rationale.contains("Default severity: \(description.defaultSeverity.rawValue)"),
                    "'\(description.id)' does not say why it is \(description.defaultSeverity.rawValue)")
        }
    }

    @Test func unknownIDFindsNothing() {
        #expect(RuleCatalogue.rule(id: "no_such_rule") == nil)
    }
}

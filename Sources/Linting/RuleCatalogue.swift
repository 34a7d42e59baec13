/// Every rule momlint has, in the order of the catalogue. Ids are fixed once published:
/// CI configurations and baselines depend on them.
public enum RuleCatalogue {
    public static let all: [any Rule.Type] = [
        // Relationship integrity
        MissingInverseRule.self,
        InverseMismatchRule.self,
        AmbiguousInverseRule.self,
        UnknownDestinationRule.self,
        InvalidRelationshipCountRule.self,
        // Names
        ReservedNameRule.self,
        EntityNameCaseRule.self,
        PropertyNameCaseRule.self,
        DuplicatePropertyRule.self,
        // Types and values
        UnsupportedAttributeTypeRule.self,
        UndefinedAttributeTypeRule.self,
        DefaultValueInvalidRule.self,
        TransformableWithoutTransformerRule.self,
        ExternalStorageOnNonBinaryRule.self,
        UnsignedIntegerAttributeRule.self,
        TooManyPropertiesRule.self,
        TransientInverseMismatchRule.self,
        // Delete rules
        NoActionDeleteRuleRule.self,
        CascadeToSharedRule.self,
        CascadeCycleRule.self,
        MutualDenyRule.self,
        NullifyRequiredInverseRule.self,
        CascadeIntoDenyRule.self,
        // Structure and versions
        AbstractWithoutSubentitiesRule.self,
        InvalidParentEntityRule.self,
        ConstraintInvalidPropertyRule.self,
        InvalidCurrentVersionRule.self,
        // CloudKit
        CloudKitUniqueConstraintRule.self,
        CloudKitRequiredAttributeRule.self,
        CloudKitRequiredRelationshipRule.self,
        CloudKitMissingInverseRule.self,
        CloudKitDenyRuleRule.self,
        CloudKitOrderedRelationshipRule.self,
        CloudKitUnsupportedAttributeTypeRule.self,
        CloudKitRelationshipOutsideConfigurationRule.self,
        // Migration (two versions of a bundle; see MigrationRule)
        MigrationNotInferableRule.self,
        MigrationRequiredWithoutDefaultRule.self,
        MigrationDropsDataRule.self,
        MigrationUnhashedChangeRule.self,
        ShippedVersionModifiedRule.self,
        CloudKitDestructiveChangeRule.self,
        // Migration of a SwiftData folder's VersionedSchemas (see SchemaVersionsRule);
        // shipped_version_modified above checks them too.
        SchemaVersionsIdenticalRule.self,
        SchemaVersionUsesLiveModelRule.self,
        MigrationStageNotInferableRule.self,
        MigrationPlanIncompleteRule.self,
        SchemaVersionIdentifierReusedRule.self,
    ]

    public static func rule(id: String) -> (any Rule.Type)? {
        all.first { $0.description.id == id }
    }
}

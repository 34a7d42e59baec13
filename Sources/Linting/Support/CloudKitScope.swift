import DataModel

/// What NSPersistentCloudKitContainer syncs of a model: the entities of its CloudKit
/// configurations, with the properties they declare or inherit (each declaration once).
struct CloudKitScope {
    /// Entities synced, as indexes in `entities`, in document order.
    let entityIndexes: [Int]
    /// The attributes and relationships the synced entities declare or inherit, each declaring
    /// entity's once (however many synced sub-entities inherit them), in document order of
    /// the synced entities, ancestors' before their own. Positions, not copies: a rule chooses
    /// by traits and visits only what it reports.
    let attributePositions: [AttributePosition]
    let relationshipPositions: [RelationshipPosition]

    init(model: Model) {
        let names = model.cloudKitEntityNames
        let entities = model.entities
        entityIndexes = names.isEmpty ? [] : entities.indices.filter { names.contains(entities[$0].name) }
        var seen = Set<Int>()
        var attributes: [AttributePosition] = []
        var relationships: [RelationshipPosition] = []
        for entityIndex in entityIndexes {
            // A synced sub-entity's record carries its ancestors' fields, synced or not.
            for declaring in model.ancestorIndexes(ofEntityAt: entityIndex).reversed() + [entityIndex]
            where seen.insert(declaring).inserted {
                let entity = entities[declaring]
                for attributeIndex in entity.attributes.indices {
                    attributes.append(AttributePosition(entityIndex: declaring, attributeIndex: attributeIndex))
                }
                for relationshipIndex in entity.relationships.indices {
                    relationships.append(RelationshipPosition(entityIndex: declaring, relationshipIndex: relationshipIndex))
                }
            }
        }
        attributePositions = attributes
        relationshipPositions = relationships
    }
}

/// Sources shared by the CloudKit rules.
enum CloudKitSources {
    static let all = [
        "https://developer.apple.com/documentation/coredata/creating-a-core-data-model-for-cloudkit",
        "https://fatbobman.com/en/snippet/rules-for-adapting-data-models-to-cloudkit",
        "https://stackoverflow.com/questions/66380409",
        "docs/coredata-semantics.md §4 CloudKit",
    ]

    /// Said once in every CloudKit rule's rationale.
    static let consequence = """
        NSPersistentCloudKitContainer validates the model when it loads the store and refuses a model \
        that breaks this, with error 134060 listing the offending properties; momlint reports it before \
        the app ever runs. Only entities of a configuration with "Used with CloudKit" (or of a model \
        marked usedWithCloudKit) are checked.

        Default severity: error, because the store fails to load (134060): the app cannot open its \
        data at all.
        """
}

extension LintedModel {
    /// The entities NSPersistentCloudKitContainer syncs (see `CloudKitScope`).
    var cloudKitEntities: [Entity] { cloudKitScope.entityIndexes.map { model.entities[$0] } }

    /// The relationships the synced entities declare or inherit (each declaration once) whose
    /// traits pass `test`, in scope order.
    func cloudKitRelationships(where test: (RelationshipTraits) -> Bool) -> [DeclaredRelationship] {
        cloudKitScope.relationshipPositions.filter { test(model.traits(ofRelationshipAt: $0)) }
            .map { DeclaredRelationship($0, in: model) }
    }

    /// The attributes the synced entities declare or inherit (each declaration once) whose
    /// traits pass `test`, in scope order.
    func cloudKitAttributes(where test: (AttributeTraits) -> Bool) -> [DeclaredAttribute] {
        cloudKitScope.attributePositions.filter { test(model.traits(ofAttributeAt: $0)) }.map { DeclaredAttribute($0, in: model) }
    }
}

import DataModel

/// What NSPersistentCloudKitContainer syncs of a model: the entities of its CloudKit
/// configurations, with the properties they declare or inherit (each declaration once).
struct CloudKitScope {
    let entityNames: Set<String>
    /// Entities synced, in document order.
    let entities: [Entity]
    let attributes: [DeclaredAttribute]
    let relationships: [DeclaredRelationship]

    init(model: Model) {
        let names = model.cloudKitEntityNames
        entityNames = names
        entities = names.isEmpty ? [] : model.entities.filter { names.contains($0.name) }
        // Each declaring entity contributes its properties once, however many synced
        // sub-entities inherit them; entities are told apart by where they are declared.
        var seen: Set<SourceLocation> = []
        var attributes: [DeclaredAttribute] = []
        var relationships: [DeclaredRelationship] = []
        for entity in entities {
            // A synced sub-entity's record carries its ancestors' fields, synced or not.
            for declaring in model.ancestors(of: entity).reversed() + [entity] where seen.insert(declaring.location).inserted {
                for attribute in declaring.attributes {
                    attributes.append(DeclaredAttribute(ownerName: declaring.name, attribute: attribute))
                }
                for relationship in declaring.relationships {
                    relationships.append(DeclaredRelationship(entity: declaring, relationship: relationship,
                                                              position: model.position(of: relationship)))
                }
            }
        }
        self.attributes = attributes
        self.relationships = relationships
    }
}

extension DeclaredRelationship {
    func violation(_ message: String, suggestion: String? = nil) -> Violation {
        Violation(message: message, location: relationship.location, entityName: entity.name,
                  propertyName: relationship.name, suggestion: suggestion)
    }
}

/// Sources shared by the CloudKit rules.
enum CloudKitSources {
    static let all = [
        "https://developer.apple.com/documentation/coredata/creating-a-core-data-model-for-cloudkit",
        "https://fatbobman.com/en/snippet/rules-for-adapting-data-models-to-cloudkit",
        "https://stackoverflow.com/questions/66380409",
        "../shared/reference/coredata-behaviour.md §4 CloudKit",
    ]

    /// Said once in every CloudKit rule's rationale.
    static let consequence = """
        NSPersistentCloudKitContainer validates the model when it loads the store and refuses a model \
        that breaks this, with error 134060 listing the offending properties; momlint reports it before \
        the app ever runs. Only entities of a configuration with "Used with CloudKit" (or of a model \
        marked usedWithCloudKit) are checked.
        """
}

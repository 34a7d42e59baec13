import DataModel

/// The mapping Core Data's lightweight migration infers between two versions of a model: for
/// every entity and stored property of the destination, the source element whose data it
/// takes, or none (added). A store's own migration reads it; it is built on the one diff engine
/// (`SchemaDiff`), sharing its matching by renaming identifier and its `lightweight`
/// classification, so `momlint diff`, the migration rules and the stores cannot disagree.
///
/// ```swift
/// let mapping = try InferredMapping(from: version1, to: version2)   // MappingInferenceError: 134140
/// if mapping.needsMigration { … }                                   // else: 134100 without migration
/// for entity in mapping.entities { entity.sourceEntity; entity.attributes }
/// ```
public struct InferredMapping: Sendable {
    public var sourceVersionName: String
    public var destinationVersionName: String
    /// The diff the mapping was inferred from, in the newer version's order.
    public var changes: [SchemaChange]
    /// Some version hash differs: a store the source version wrote must be migrated before
    /// the destination version can open it (without migration Core Data fails with 134100).
    public var needsMigration: Bool
    /// One per destination entity, in the destination's document order.
    public var entities: [EntityMapping]

    /// Infers the mapping, or throws `MappingInferenceError` naming the first change that
    /// lightweight migration cannot infer (Core Data's 134140,
    /// `NSMigrationMissingMappingModelError`): an attribute's type (except between binary numbers,
    /// `NumericTypeChange`, whose values the stores convert), a relationship's destination, merged
    /// hierarchies (`SchemaChange.lightweight`).
    ///
    /// A required attribute with no default that stored rows have no value for does not stop
    /// the inference: Core Data infers the mapping and the migration fails on the first such row
    /// (134110, `NSMigrationError`); `PropertyMapping.requiresStoredValue` marks them.
    public init(from source: Model, to destination: Model) throws(MappingInferenceError) {
        let comparison = SchemaComparison(older: source, newer: destination)
        let changes = comparison.changes().changes
        if let blocking = changes.first(where: { !$0.lightweight }) {
            throw MappingInferenceError(sourceVersionName: source.version.name,
                                        destinationVersionName: destination.version.name, change: blocking)
        }
        sourceVersionName = source.version.name
        destinationVersionName = destination.version.name
        self.changes = changes
        needsMigration = changes.contains { $0.hashChanging }

        // Attributes left without a value, keyed by the newer entity declaring them.
        var gaps = Set<PropertyKey>()
        for change in changes where change.needsDefaultValue {
            if let name = change.elementName { gaps.insert(PropertyKey(entity: change.entityName, property: name)) }
        }
        entities = destination.entities.enumerated().map { newIndex, entity in
            guard let oldIndex = comparison.olderMatch[newIndex] else {
                let slots = comparison.storedRow(of: entity, in: destination).slots
                return EntityMapping(destinationEntity: entity.name, sourceEntity: nil,
                                     slots: slots.map { ($0, nil) }, gaps: gaps)
            }
            let matches = comparison.matchProperties(source.entities[oldIndex], entity)
            let paired = zip(matches.newSlots, matches.oldIndexOfNew).map { slot, old in
                (slot, old.map { matches.oldSlots[$0].property.name })
            }
            return EntityMapping(destinationEntity: entity.name, sourceEntity: source.entities[oldIndex].name,
                                 slots: paired, gaps: gaps)
        }
    }

    /// The mapping of a destination entity, by name.
    public func entity(named name: String) -> EntityMapping? {
        entities.first { $0.destinationEntity == name }
    }

    /// The source entities no destination entity takes its data from: their rows are dropped.
    public func removedSourceEntities(of source: Model) -> [String] {
        let kept = Set(entities.compactMap(\.sourceEntity))
        return source.entities.map(\.name).filter { !kept.contains($0) }
    }
}

private struct PropertyKey: Hashable {
    var entity: String
    var property: String
}

/// How one destination entity is filled: from which source entity (nil: added, no rows), and
/// each of its stored properties — own and inherited, attributes and relationships apart.
public struct EntityMapping: Sendable, Hashable {
    public var destinationEntity: String
    /// The source entity whose rows become this entity's; nil for an added entity.
    public var sourceEntity: String?
    /// Every attribute of the destination entity, inherited ones included (own first).
    public var attributes: [PropertyMapping]
    /// Every relationship of the destination entity, inherited ones included (own first).
    public var relationships: [PropertyMapping]

    public init(destinationEntity: String, sourceEntity: String?, attributes: [PropertyMapping],
                relationships: [PropertyMapping]) {
        self.destinationEntity = destinationEntity
        self.sourceEntity = sourceEntity
        self.attributes = attributes
        self.relationships = relationships
    }

    fileprivate init(destinationEntity: String, sourceEntity: String?,
                     slots: [(SchemaComparison.PropertySlot, String?)], gaps: Set<PropertyKey>) {
        var attributes: [PropertyMapping] = [], relationships: [PropertyMapping] = []
        for (slot, sourceName) in slots {
            let name = slot.property.name
            let required = gaps.contains(PropertyKey(entity: slot.declaringEntity, property: name))
            let mapping = PropertyMapping(destinationProperty: name, sourceProperty: sourceName,
                                          declaringEntity: slot.declaringEntity, requiresStoredValue: required)
            switch slot.property {
            case .attribute: attributes.append(mapping)
            case .relationship: relationships.append(mapping)
            case .fetchedProperty: break
            }
        }
        self.init(destinationEntity: destinationEntity, sourceEntity: sourceEntity,
                  attributes: attributes, relationships: relationships)
    }

    /// The mapping of one destination property (attribute or relationship), by name.
    public func property(named name: String) -> PropertyMapping? {
        attributes.first { $0.destinationProperty == name } ?? relationships.first { $0.destinationProperty == name }
    }
}

/// One destination property and the source property whose values it takes (nil: new, so it
/// starts at its default value, or empty).
public struct PropertyMapping: Sendable, Hashable {
    public var destinationProperty: String
    /// The source property's name in the source entity (differs when renamed through a renaming
    /// identifier); nil for a new property.
    public var sourceProperty: String?
    /// The destination entity that declares the property (the entity itself or an ancestor).
    public var declaringEntity: String
    /// A required attribute with no default that stored rows may have no value for (added,
    /// made required or made persistent): a row left without one fails the migration (134110).
    public var requiresStoredValue: Bool
}

/// Lightweight migration cannot infer a mapping between the two versions: Core Data fails with
/// 134140 (`NSMigrationMissingMappingModelError`, docs/coredata-semantics.md §8). Names the
/// first change it cannot infer.
public struct MappingInferenceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `NSMigrationMissingMappingModelError`.
    public static let coreDataCode = 134140

    public var sourceVersionName: String
    public var destinationVersionName: String
    /// The change lightweight migration cannot infer.
    public var change: SchemaChange

    public var description: String {
        "lightweight migration cannot infer a mapping from '\(sourceVersionName)' to '\(destinationVersionName)': "
            + change.details + "; give a mapping model or change the model"
    }
}

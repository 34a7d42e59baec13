import Conformance
import DataModel
import ModelDiff

/// Opening the saved data with another model version (contract 1.3, feature `migration`), in
/// memory, as Core Data's lightweight migration does with an inferred mapping
/// (docs/coredata-semantics.md §8): the mapping comes from `InferredMapping`, which reads the one
/// schema diff (`SchemaDiff`), so the oracle migrates exactly what the linter's migration rules
/// and `momlint diff` describe.
extension ReferenceStore {
    /// Discards pending changes, then opens the saved graph with `newModel`:
    ///
    /// - no version hash differs: the data are kept as they are (defaults, validation and delete
    ///   rules of the new version apply from now on);
    /// - hashes differ and `migration` is `.none`: 134100;
    /// - the mapping cannot be inferred (a type change other than between binary numbers, a new
    ///   destination, merged hierarchies): 134140; a numeric type change converts the values;
    /// - a migrated object would hold nil in a required attribute without default: 134110.
    ///
    /// Any failure leaves the saved data and the model as they were.
    public func reopen(with newModel: Model, modelPath: String, migration: MigrationMode) throws -> StoreResponse {
        guard !hasSeveralContexts else {
            throw StoreAdapterError(.unsupported, "the reference store migrates a store with one context only")
        }
        resetAllContexts(readOnly: false)
        let newSchema = try StoreSchema(model: newModel)
        let needsMigration = SchemaDiff(from: model, to: newModel).needsMigration
        if needsMigration && migration == .none {
            return .openFailed(OpenFailure(code: CoreDataErrorCode.persistentStoreIncompatibleVersionHash, message:
                "the store's version hashes ('\(model.version.name)') differ from those of '\(newModel.version.name)' "
                    + "and no migration was asked for"))
        }
        let mapping: InferredMapping
        do {
            mapping = try InferredMapping(from: model, to: newModel)
        } catch {
            return .openFailed(OpenFailure(code: CoreDataErrorCode.migrationMissingMappingModel, message: error.description))
        }
        let migrated: ObjectGraph
        do {
            migrated = try Migration(mapping: mapping, from: context.schema, to: newSchema, newModel: newModel)
                .migrate(persistent)
        } catch {
            return .openFailed(error)
        }
        model = newModel
        context = ObjectContext(schema: newSchema, saved: migrated)
        persistent = migrated
        #if DEBUG
        if let violation = context.invariantViolation() {
            preconditionFailure("reference store invariant broken after migrating to '\(newModel.version.name)': \(violation)")
        }
        #endif
        return .done
    }
}

/// The inferred mapping resolved to slots: for each destination entity, where each attribute
/// and relationship slot takes its data from in the source entity.
private struct Migration {
    struct EntityPlan {
        var destination: Int
        /// Per destination attribute slot, the source slot (nil: new, so its default).
        var attributeSources: [Int?]
        /// Per destination attribute slot, the numeric type change its values go through.
        var conversions: [NumericTypeChange?]
        /// Per destination relationship slot, the source slot (nil: new, so empty).
        var relationshipSources: [Int?]
    }

    let source: StoreSchema
    let destination: StoreSchema
    /// Per source entity index, its plan; nil when the destination has no entity for it.
    let plans: [EntityPlan?]
    /// Destination attributes a nil may not reach: required, persistent, not derived.
    let mustHaveValue: [[Bool]]

    init(mapping: InferredMapping, from source: StoreSchema, to destination: StoreSchema, newModel: Model) {
        self.source = source
        self.destination = destination
        var plans = [EntityPlan?](repeating: nil, count: source.entities.count)
        for entityMapping in mapping.entities {
            guard let sourceName = entityMapping.sourceEntity, let from = source.entityIndexes[sourceName],
                  let to = destination.entityIndexes[entityMapping.destinationEntity] else { continue }
            let target = destination.entities[to]
            let origin = source.entities[from]
            var attributeSources = [Int?](repeating: nil, count: target.attributes.count)
            var conversions = [NumericTypeChange?](repeating: nil, count: target.attributes.count)
            for property in entityMapping.attributes {
                guard let slot = target.attributeSlots[property.destinationProperty],
                      !target.attributes[slot].isTransient else { continue }
                let sourceSlot = property.sourceProperty.flatMap { origin.attributeSlots[$0] }
                attributeSources[slot] = sourceSlot
                conversions[slot] = sourceSlot.flatMap {
                    NumericTypeChange(from: origin.attributes[$0].type, to: target.attributes[slot].type)
                }
            }
            var relationshipSources = [Int?](repeating: nil, count: target.relationships.count)
            for property in entityMapping.relationships {
                guard let slot = target.relationshipSlots[property.destinationProperty] else { continue }
                relationshipSources[slot] = property.sourceProperty.flatMap { origin.relationshipSlots[$0] }
            }
            plans[from] = EntityPlan(destination: to, attributeSources: attributeSources, conversions: conversions,
                                     relationshipSources: relationshipSources)
        }
        self.plans = plans
        mustHaveValue = destination.entities.enumerated().map { index, info in
            let entity = newModel.entities[index]
            return info.attributes.map { attribute in
                let derived = newModel.property(named: attribute.name, in: entity)?.asAttribute?.isDerived ?? false
                return !attribute.isOptional && !attribute.isTransient && !derived
            }
        }
    }

    /// The saved graph in the destination's entities and slots. Objects of removed entities are
    /// dropped, and so are the links to them; a to-many made to-one keeps its first destination
    /// (inferred). Throws 134110 for the first object left without a required value.
    func migrate(_ saved: ObjectGraph) throws(OpenFailure) -> ObjectGraph {
        var migrated = ObjectGraph()
        for id in saved.ids {
            let record = saved[id]!
            guard let plan = plans[record.entity] else { continue }
            let target = destination.entities[plan.destination]
            var attributes = target.defaultValues
            for (slot, sourceSlot) in plan.attributeSources.enumerated() {
                guard let sourceSlot else { continue }
                let value = plan.conversions[slot].map { ReferenceStore.converted(record.attributes[sourceSlot], by: $0) }
                    ?? record.attributes[sourceSlot]
                // A nil in an attribute that is now required takes the new default (the
                // documented "optional becoming non-optional, with a default value").
                attributes[slot] = value == .null && mustHaveValue[plan.destination][slot]
                    ? target.defaultValues[slot] : value
            }
            for (slot, value) in attributes.enumerated() where value == .null && mustHaveValue[plan.destination][slot] {
                throw OpenFailure(code: CoreDataErrorCode.migration, message:
                    "'\(record.name)' (\(target.name)) would have no value for the required attribute "
                        + "'\(target.attributes[slot].name)', which has no default value")
            }
            var relationships = target.emptyRelationships
            for (slot, sourceSlot) in plan.relationshipSources.enumerated() {
                guard let sourceSlot else { continue }
                relationships[slot] = record.relationships[sourceSlot]
            }
            migrated.add(ObjectRecord(entity: plan.destination, name: record.name, attributes: attributes,
                                      relationships: relationships), as: id)
        }
        // Links to dropped objects go; a to-one keeps one destination.
        let kept = migrated
        for id in Array(migrated.ids) {
            migrated.modify(id) { record in
                let info = destination.entities[record.entity]
                for slot in record.relationships.indices {
                    record.relationships[slot].removeAll { !kept.contains($0) }
                    if !info.relationships[slot].isToMany && record.relationships[slot].count > 1 {
                        record.relationships[slot] = [record.relationships[slot][0]]
                    }
                }
            }
        }
        mirrorInverses(in: &migrated)
        return migrated
    }

    /// Each link on both sides: a side whose inverse was added, or a to-many made to-one, may
    /// hold links the other side lacks (or the reverse); the kept side wins, and a to-one keeps
    /// the partner it has.
    private func mirrorInverses(in graph: inout ObjectGraph) {
        for id in Array(graph.ids) {
            let record = graph[id]!
            let info = destination.entities[record.entity]
            for (slot, relationship) in info.relationships.enumerated() {
                guard let inverseSlot = relationship.inverseSlot else { continue }
                for member in record.relationships[slot] {
                    let inverse = destination.entities[graph[member]!.entity].relationships[inverseSlot]
                    graph.modify(member) { partner in
                        guard !partner.relationships[inverseSlot].contains(id) else { return }
                        if !inverse.isToMany && !partner.relationships[inverseSlot].isEmpty { return }
                        partner.relationships[inverseSlot].append(id)
                    }
                }
            }
        }
        // A to-one that kept another partner: drop the link the partner does not mirror.
        for id in Array(graph.ids) {
            let record = graph[id]!
            let info = destination.entities[record.entity]
            for (slot, relationship) in info.relationships.enumerated() {
                guard let inverseSlot = relationship.inverseSlot else { continue }
                let unmirrored = record.relationships[slot].filter { !graph[$0]!.relationships[inverseSlot].contains(id) }
                guard !unmirrored.isEmpty else { continue }
                graph.modify(id) { $0.relationships[slot].removeAll { unmirrored.contains($0) } }
            }
        }
    }
}

extension OpenFailure: Error {}

extension ReferenceStore {
    /// A stored number carried through a numeric type change, as an SQLite store's columns
    /// convert it (docs/coredata-semantics.md §8; WooCommerce's migration test reads a stored `1`
    /// back as `1.0` after Integer 64 → Double): to Float or Double it becomes a floating value
    /// (Float rounds it to single precision); to an integer type a fraction is truncated toward
    /// zero, as SQLite's `CAST(… AS INTEGER)` does, an infinity clamped to Integer 64's range
    /// (inferred). An integer too wide for a narrower integer type is kept: the column holds it
    /// as it was (inferred; `migration_drops_data` warns of narrowing changes).
    static func converted(_ value: AttributeValue, by change: NumericTypeChange) -> AttributeValue {
        switch (value, change.to) {
        case (.integer(let number), .double): return .double(Double(number))
        case (.integer(let number), .float): return .double(Double(Float(number)))
        case (.double(let number), .float): return .double(Double(Float(number)))
        case (.double(let number), .integer16), (.double(let number), .integer32), (.double(let number), .integer64):
            if number.isNaN { return .null }
            if number >= 9.223372036854775807e18 { return .integer(.max) }
            if number <= -9.223372036854775808e18 { return .integer(.min) }
            return .integer(Int64(number.rounded(.towardZero)))
        default: return value
        }
    }
}

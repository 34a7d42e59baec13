import Conformance
import DataModel

/// What a store's conflict check did to a save's candidate state.
enum ConflictResolution {
    /// Nothing to resolve.
    case unchanged
    /// Newer values were merged in; the state is validated again.
    case merged
    /// The save fails with this.
    case failed(SaveFailure)
}

/// The working state of a reference store: the saved graph plus pending changes, like an
/// `NSManagedObjectContext` over its persistent store.
///
/// A value type, so a save can be tried on a copy and committed only if it succeeds: a failing
/// save changes nothing (contract §4.3).
struct ObjectContext {
    let schema: StoreSchema
    /// The objects as the context last read them from its parent (the store, or the parent
    /// context) or last saved them: the snapshot pending changes are measured against. Transient
    /// values are kept here as the context last had them, so a save does not turn them into
    /// changes; the store's own rows have them at their defaults.
    var saved = ObjectGraph()
    /// The current objects, pending-deleted ones included until the save removes them.
    var graph = ObjectGraph()
    var inserted = ObjectSet()
    var deleted = ObjectSet()
    /// Objects whose attributes or relationships changed since the last save (inserted ones
    /// included): the ones a save validates.
    var changed = ObjectSet()
    /// With several contexts: the objects this context has read or changed since it was last
    /// reset ("registered" in Core Data's words). The others follow their parent as it changes;
    /// these keep the values the context read until they are refreshed.
    var registered = ObjectSet()
    /// With several contexts, for a context on the store: the version of each object's row when
    /// the context read it (Core Data's `Z_OPT`), checked at save for optimistic locking.
    var readVersions: [ObjectID: Int] = [:]
    /// The objects the last successful save wrote (inserted, changed or deleted), for the store
    /// to pass on to its rows or to the parent context.
    var lastSaved: [ObjectID] = []

    /// A context with nothing pending over `saved`, objects of `schema` (after a migration).
    init(schema: StoreSchema, saved: ObjectGraph = ObjectGraph()) {
        self.schema = schema
        self.saved = saved
        self.graph = saved
    }

    // MARK: Reading

    /// True for an object that is inserted or saved and not deleted.
    func isLive(_ id: ObjectID) -> Bool {
        graph.contains(id) && !deleted.contains(id)
    }

    func record(_ id: ObjectID) -> ObjectRecord? { graph[id] }

    var hasChanges: Bool { !inserted.isEmpty || !deleted.isEmpty || !changed.isEmpty }

    /// Live objects of `entity` or of its sub-entities.
    func liveCount(ofKind entity: Int) -> Int {
        var total = 0
        for id in graph.ids where !deleted.contains(id) && schema.entity(graph[id]!.entity, isKindOf: entity) {
            total += 1
        }
        return total
    }

    // MARK: Changes

    /// Inserts an object; attributes not given take their model defaults.
    mutating func insert(entity: Int, name: String, as id: ObjectID,
                         values: [(slot: Int, value: AttributeValue)]) throws(StoreAdapterError) {
        let info = schema.entities[entity]
        guard !info.isAbstract else {
            throw StoreAdapterError(.invalidRequest, "'\(info.name)' is abstract and cannot be inserted")
        }
        var record = ObjectRecord(entity: entity, name: name, attributes: info.defaultValues,
                                  relationships: info.emptyRelationships)
        for (slot, value) in values { record.attributes[slot] = value }
        graph.add(record, as: id)
        inserted.insert(id)
        changed.insert(id)
    }

    mutating func set(_ id: ObjectID, slot: Int, to value: AttributeValue) {
        graph.modify(id) { $0.attributes[slot] = value }
        changed.insert(id)
    }

    /// Adds `destination` to a relationship and maintains the inverse (contract §4.1).
    mutating func link(_ id: ObjectID, slot: Int, to destination: ObjectID) throws(StoreAdapterError) {
        let relationship = schema.entities[graph[id]!.entity].relationships[slot]
        let destinationEntity = graph[destination]!.entity
        guard schema.entity(destinationEntity, isKindOf: relationship.destination) else {
            throw StoreAdapterError(.invalidRequest,
                "'\(relationship.name)' holds '\(schema.entities[relationship.destination].name)' objects, "
                    + "not '\(schema.entities[destinationEntity].name)'")
        }
        guard !holds(id, slot: slot, destination) else { return }
        if !relationship.isToMany, let previous = graph[id]!.relationships[slot].first {
            try unlink(id, slot: slot, from: previous)
        }
        appendMember(destination, to: id, slot: slot)
        if let inverseSlot = relationship.inverseSlot {
            let inverse = schema.entities[destinationEntity].relationships[inverseSlot]
            // A to-one inverse can point at one object only: the destination leaves its old partner.
            if !inverse.isToMany, let previous = graph[destination]!.relationships[inverseSlot].first, previous != id {
                removeMember(destination, from: previous, slot: slot)
            }
            if !inverse.isToMany {
                graph.modify(destination) { $0.relationships[inverseSlot] = [] }
            }
            // `id` did not hold `destination`, so (mirrored) the destination's inverse does not
            // hold `id` — unless it is the list just appended to (an object linked to itself
            // through a relationship that is its own inverse).
            if destination != id || inverseSlot != slot {
                appendMember(id, to: destination, slot: inverseSlot)
            }
        }
    }

    /// Whether live `id`'s relationship `slot` holds live `destination`. Asked of a to-one
    /// inverse when there is one — one look instead of a scan of a to-many's list, so a folder
    /// gains its 10,000th file as fast as its first — which answers the same because a
    /// relationship and its inverse mirror each other between live objects (checked by
    /// `invariantViolation` in debug builds).
    private func holds(_ id: ObjectID, slot: Int, _ destination: ObjectID) -> Bool {
        let relationship = schema.entities[graph[id]!.entity].relationships[slot]
        if relationship.isToMany, let inverseSlot = relationship.inverseSlot,
           let inverse = graph[destination]?.relationships[inverseSlot],
           !schema.entities[graph[destination]!.entity].relationships[inverseSlot].isToMany {
            return inverse.first == id
        }
        return graph[id]!.relationships[slot].contains(destination)
    }

    /// Removes `destination` from a relationship and maintains the inverse.
    mutating func unlink(_ id: ObjectID, slot: Int, from destination: ObjectID) throws(StoreAdapterError) {
        guard graph[id]!.relationships[slot].contains(destination) else { return }
        removeMember(destination, from: id, slot: slot)
        let relationship = schema.entities[graph[id]!.entity].relationships[slot]
        if let inverseSlot = relationship.inverseSlot, graph.contains(destination) {
            removeMember(id, from: destination, slot: inverseSlot)
        }
    }

    /// Adds `member`, which `owner`'s relationship `slot` does not hold, at its end.
    private mutating func appendMember(_ member: ObjectID, to owner: ObjectID, slot: Int) {
        graph.modify(owner) { $0.relationships[slot].append(member) }
        changed.insert(owner)
    }

    private mutating func removeMember(_ member: ObjectID, from owner: ObjectID, slot: Int) {
        guard graph.contains(owner) else { return }
        let removed = graph.modify(owner) { record -> Bool in
            guard let index = record.relationships[slot].firstIndex(of: member) else { return false }
            // `remove(at:)` keeps the order of the rest, as an ordered relationship requires.
            record.relationships[slot].remove(at: index)
            return true
        }
        if removed { changed.insert(owner) }
    }

    // MARK: Delete and propagation

    /// Marks `id` deleted and applies delete rules until nothing new is deleted (contract §4.2).
    ///
    /// Propagation uses a work list, not recursion, so a cascade of any length runs in constant
    /// stack space; an object is queued only when it is first marked, so cycles and fan-in
    /// delete each object once.
    mutating func delete(_ id: ObjectID) {
        guard isLive(id) else { return }
        var pending = [id]
        deleted.insert(id)
        while let next = pending.popLast() {
            let relationships = schema.entities[graph[next]!.entity].relationships
            for (slot, relationship) in relationships.enumerated() {
                switch relationship.deleteRule {
                case .nullify, .cascade, .unknown:
                    break
                case .deny, .noAction:
                    // Deny is checked at save; No Action touches neither side (coredata-semantics §1).
                    continue
                }
                let destinations = graph[next]!.relationships[slot]
                guard !destinations.isEmpty else { continue }
                graph.modify(next) { $0.relationships[slot] = [] }
                for destination in destinations where graph.contains(destination) {
                    if let inverseSlot = relationship.inverseSlot {
                        removeMember(next, from: destination, slot: inverseSlot)
                    }
                    if relationship.deleteRule == .cascade, deleted.insert(destination).inserted {
                        pending.append(destination)
                    }
                }
            }
        }
    }

    /// Removes an inserted object as if it had never been inserted: no delete rules run, and
    /// every object that pointed at it lets go (what `NSRollbackMergePolicy` does to a new loser).
    mutating func discard(_ id: ObjectID) {
        guard let record = graph[id] else { return }
        let entity = schema.entities[record.entity]
        for (slot, relationship) in entity.relationships.enumerated() {
            guard let inverseSlot = relationship.inverseSlot else { continue }
            for destination in record.relationships[slot] {
                removeMember(id, from: destination, slot: inverseSlot)
            }
        }
        graph.remove(id)
        inserted.remove(id)
        changed.remove(id)
        deleted.remove(id)
    }

    /// Returns a saved object to its saved state: attributes, and relationships (through
    /// `link`/`unlink`, so the inverses follow).
    mutating func revert(_ id: ObjectID) throws(StoreAdapterError) {
        guard let original = saved[id], let current = graph[id] else { return }
        graph.modify(id) { $0.attributes = original.attributes }
        for slot in current.relationships.indices {
            let wanted = original.relationships[slot].filter { isLive($0) }
            for destination in current.relationships[slot] where !wanted.contains(destination) {
                try unlink(id, slot: slot, from: destination)
            }
            for destination in wanted where !graph[id]!.relationships[slot].contains(destination) {
                try link(id, slot: slot, to: destination)
            }
        }
        changed.insert(id)
    }

    // MARK: Save and reset

    /// Validates and commits every pending change, or fails and changes nothing.
    /// `resolvingConflicts` runs after validation and before uniqueness constraints: the store's
    /// optimistic-locking check, which may fail the save or merge newer values in (answering
    /// whether it changed anything). `checksConstraints` is false for a child context, whose
    /// save goes to its parent, not to the store that enforces them.
    mutating func save(policy: MergePolicy, checksConstraints: Bool = true,
                       resolvingConflicts: (inout ObjectContext) -> ConflictResolution = { _ in .unchanged })
        -> SaveFailure? {
        var candidate = self
        if let failure = candidate.commit(policy: policy, checksConstraints: checksConstraints,
                                          resolvingConflicts: resolvingConflicts) { return failure }
        self = candidate
        return nil
    }

    private mutating func commit(policy: MergePolicy, checksConstraints: Bool,
                                 resolvingConflicts: (inout ObjectContext) -> ConflictResolution) -> SaveFailure? {
        if let failure = SaveValidator(context: self).failure() { return failure }
        switch resolvingConflicts(&self) {
        case .failed(let failure): return failure
        case .merged:
            // Merged values must be valid too.
            if let failure = SaveValidator(context: self).failure() { return failure }
        case .unchanged: break
        }
        if checksConstraints {
            var resolver = ConstraintResolver(policy: policy)
            do {
                let merged = try resolver.resolve(in: &self)
                // A merge moves values and deletes losers; what it leaves must be valid too.
                if merged, let failure = SaveValidator(context: self).failure() { return failure }
            } catch {
                return error.failure
            }
        }
        var written = inserted
        written.formUnion(changed, deleted)
        lastSaved = Array(written)
        purgeDeletedObjects()
        saved = graph
        inserted.removeAll()
        changed.removeAll()
        return nil
    }

    /// Drops deleted objects for good, and every reference to them that delete rules did not
    /// clear (No Action, relationships without an inverse): those read as nil after a save,
    /// the way Core Data repairs them (coredata-semantics §1 "No inverse"; the suite does not check this).
    private mutating func purgeDeletedObjects() {
        guard !deleted.isEmpty else { return }
        for id in deleted {
            guard let record = graph[id] else { continue }
            for (slot, relationship) in schema.entities[record.entity].relationships.enumerated() {
                guard let inverseSlot = relationship.inverseSlot else { continue }
                for destination in record.relationships[slot] where !deleted.contains(destination) {
                    removeMember(id, from: destination, slot: inverseSlot)
                }
            }
        }
        let removed = deleted
        for id in removed { graph.remove(id) }
        if schema.hasRelationshipsWithoutInverse {
            for id in Array(graph.ids) {
                let record = graph[id]!
                for (slot, relationship) in schema.entities[record.entity].relationships.enumerated()
                where relationship.inverseSlot == nil && record.relationships[slot].contains(where: removed.contains) {
                    graph.modify(id) { $0.relationships[slot].removeAll(where: removed.contains) }
                }
            }
        }
        deleted.removeAll()
    }

    /// Discards every pending change (contract §4.7) and every value read, starting again from
    /// `parent`: the store's rows for a context on the store.
    mutating func reset(to parent: ObjectGraph) {
        graph = parent
        saved = parent
        inserted.removeAll()
        deleted.removeAll()
        changed.removeAll()
        registered.removeAll()
        readVersions = [:]
    }
}

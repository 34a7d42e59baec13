import Conformance

/// Several contexts on one store (contract 1.4, §4.10): refreshing objects, optimistic locking
/// between contexts on the store, and child saves that go to the parent context.
extension ReferenceStore {
    /// `refresh(_:mergeChanges:)`: the object takes its parent's current values; with
    /// `mergeChanges` its pending changes are applied again over them, without it they are
    /// lost ("the object is turned into a fault and any pending changes are lost", Apple's
    /// `refresh(_:mergeChanges:)`). Transient values not pending go back to their defaults, as a
    /// fault keeps no transient values. An inserted object has nothing to reload and is left as
    /// it is.
    func refresh(_ id: ObjectID, mergingChanges: Bool, in box: ContextBox) {
        let view = parentView(of: box)
        guard let fresh = view[id], let current = box.context.graph[id], let snapshot = box.context.saved[id],
              !box.context.inserted.contains(id) else { return }
        var merged = fresh
        var stillChanged = false
        if mergingChanges {
            for slot in current.attributes.indices where current.attributes[slot] != snapshot.attributes[slot] {
                merged.attributes[slot] = current.attributes[slot]
                stillChanged = true
            }
            for slot in current.relationships.indices where current.relationships[slot] != snapshot.relationships[slot] {
                merged.relationships[slot] = current.relationships[slot]
                stillChanged = true
            }
            stillChanged = stillChanged || box.context.deleted.contains(id)
        } else {
            box.context.deleted.remove(id)
        }
        box.context.graph.replace(id, with: merged)
        box.context.saved.replace(id, with: fresh)
        if !stillChanged { box.context.changed.remove(id) }
        if box.parent == nil, hasSeveralContexts { box.context.readVersions[id] = versions[id] }
    }

    /// Optimistic locking at a save to the store: every saved object the context changed or
    /// deleted whose row was written since the context read it is a conflict (Core Data
    /// compares the row's `Z_OPT` with the version the context read). Under the error policy
    /// the save fails with 133020 naming the objects and, for each, the properties the store
    /// changed; the other policies merge property by property as Apple documents them.
    func resolveLockingConflicts(in candidate: inout ObjectContext, policy: MergePolicy) -> ConflictResolution {
        var written = candidate.changed
        written.formUnion(candidate.deleted)
        let conflicts = written.filter { !candidate.inserted.contains($0) && candidate.readVersions[$0] != versions[$0] }
        guard !conflicts.isEmpty else { return .unchanged }
        let schema = candidate.schema
        if policy == .error {
            var details: [SaveFailure] = []
            for id in conflicts {
                let name = candidate.graph[id]!.name
                guard let stored = persistent[id], let snapshot = candidate.saved[id] else {
                    details.append(SaveFailure(code: CoreDataErrorCode.managedObjectMerge, object: name))
                    continue
                }
                let entity = schema.entities[stored.entity]
                for (slot, attribute) in entity.attributes.enumerated()
                where !attribute.isTransient && stored.attributes[slot] != snapshot.attributes[slot] {
                    details.append(SaveFailure(code: CoreDataErrorCode.managedObjectMerge, object: name, key: attribute.name))
                }
                for (slot, relationship) in entity.relationships.enumerated()
                where Set(stored.relationships[slot]) != Set(snapshot.relationships[slot]) {
                    details.append(SaveFailure(code: CoreDataErrorCode.managedObjectMerge, object: name, key: relationship.name))
                }
            }
            return .failed(SaveFailure(code: CoreDataErrorCode.managedObjectMerge, details: details,
                                        objects: conflicts.map { candidate.graph[$0]!.name }.sorted()))
        }
        for id in conflicts {
            guard let stored = persistent[id] else {
                // Deleted in the store meanwhile: the deletion stands (not checked by the suite).
                candidate.discard(id)
                continue
            }
            guard !candidate.deleted.contains(id) else { continue }  // the deletion goes ahead
            let mine = candidate.graph[id]!, snapshot = candidate.saved[id]!
            var merged = mine
            let entity = schema.entities[mine.entity]
            for (slot, attribute) in entity.attributes.enumerated() where !attribute.isTransient {
                merged.attributes[slot] = policy.resolved(mine: mine.attributes[slot], read: snapshot.attributes[slot], stored: stored.attributes[slot])
            }
            for slot in entity.relationships.indices {
                merged.relationships[slot] = policy.resolved(mine: mine.relationships[slot], read: snapshot.relationships[slot], stored: stored.relationships[slot])
            }
            candidate.graph.replace(id, with: merged)
            candidate.saved.replace(id, with: stored)
            candidate.readVersions[id] = versions[id]
        }
        return .merged
    }

    /// A child context's save: its changes become pending changes of the parent — inserted
    /// objects inserted there, changed properties set there (inverses following), deleted
    /// objects deleted there — and nothing reaches the store until the parent saves (Apple:
    /// saving a child context pushes its changes "one store up", to the parent).
    /// `child` is the context as it was before its save, `written` what the save wrote.
    func push(_ child: ObjectContext, written: [ObjectID], into parent: ContextBox) {
        var context = parent.context
        let gone = written.filter { child.deleted.contains($0) }
        let kept = written.filter { !child.deleted.contains($0) && child.graph.contains($0) }
        for id in kept where child.inserted.contains(id) && !context.graph.contains(id) {
            let record = child.graph[id]!
            try? context.insert(entity: record.entity, name: record.name, as: id,
                                values: record.attributes.enumerated().map { (slot: $0.offset, value: $0.element) })
        }
        for id in kept {
            guard let record = child.graph[id], let mine = context.graph[id] else { continue }
            for slot in record.attributes.indices where record.attributes[slot] != mine.attributes[slot] {
                context.set(id, slot: slot, to: record.attributes[slot])
            }
        }
        for id in kept {
            guard let record = child.graph[id], context.graph.contains(id) else { continue }
            for slot in record.relationships.indices {
                let wanted = record.relationships[slot].filter { context.isLive($0) }
                for member in context.graph[id]!.relationships[slot] where !wanted.contains(member) {
                    try? context.unlink(id, slot: slot, from: member)
                }
                for member in wanted where !context.graph[id]!.relationships[slot].contains(member) {
                    try? context.link(id, slot: slot, to: member)
                }
            }
        }
        for id in gone where !child.inserted.contains(id) && context.isLive(id) {
            if context.inserted.contains(id) { context.discard(id) } else { context.delete(id) }
        }
        for id in written where context.graph.contains(id) { context.registered.insert(id) }
        parent.context = context
    }

    /// A record as the store keeps it: transient attributes at their defaults.
    func withoutTransientValues(_ record: ObjectRecord) -> ObjectRecord {
        let entity = context.schema.entities[record.entity]
        guard entity.attributes.contains(where: \.isTransient) else { return record }
        var stored = record
        for (slot, attribute) in entity.attributes.enumerated() where attribute.isTransient {
            stored.attributes[slot] = attribute.defaultValue
        }
        return stored
    }

    /// A graph as the store keeps it; the graph itself when no entity has a transient attribute.
    func withoutTransientValues(_ graph: ObjectGraph) -> ObjectGraph {
        guard context.schema.entities.contains(where: { $0.attributes.contains(where: \.isTransient) }) else { return graph }
        var stored = graph
        for id in graph.ids { stored.replace(id, with: withoutTransientValues(graph[id]!)) }
        return stored
    }
}

extension ObjectContext {
    /// `hasChanges` and the names of the inserted, updated and deleted objects (Apple's
    /// `insertedObjects`, `updatedObjects`, `deletedObjects`): an object inserted and deleted
    /// before a save is in none of them; an object changed through an inverse is updated.
    var changes: ContextChanges {
        var result = ContextChanges(hasChanges: hasChanges)
        for id in inserted where !deleted.contains(id) { result.inserted.append(graph[id]!.name) }
        for id in deleted where !inserted.contains(id) { result.deleted.append(graph[id]!.name) }
        for id in changed where !inserted.contains(id) && !deleted.contains(id) && graph.contains(id) {
            result.updated.append(graph[id]!.name)
        }
        return result
    }
}

extension StoreSchema {
    /// The value at a key path of an object in `graph` (`KeyPathValue.read`): an attribute's
    /// value; through a to-one, the destination's; a to-one at the end reads as the
    /// destination's name; nil on the way gives null.
    func value(at path: [String], of id: ObjectID, in graph: ObjectGraph) throws(StoreAdapterError) -> AttributeValue {
        func property(_ id: ObjectID, _ key: String) throws(StoreAdapterError) -> KeyPathValue.Property<ObjectID>? {
            guard let record = graph[id] else { return nil }
            let entity = entities[record.entity]
            if let slot = entity.attributeSlots[key] { return .attribute(record.attributes[slot]) }
            guard let slot = entity.relationshipSlots[key], !entity.relationships[slot].isToMany else {
                throw StoreAdapterError(.noSuchProperty, "'\(entity.name)' has no attribute or to-one relationship '\(key)'")
            }
            return .toOne(record.relationships[slot].first)
        }
        func name(_ id: ObjectID) throws(StoreAdapterError) -> String? { graph[id]?.name }
        return try KeyPathValue.read(path, of: id, property: property, name: name)
    }
}

import Conformance

/// A uniqueness conflict the merge policy cannot resolve; the save reports `failure`.
struct ConstraintFailure: Error {
    var failure: SaveFailure
}

/// Finds uniqueness-constraint conflicts at save and resolves them by merge policy, following
/// the survivor / values / relationships table of docs/coredata-semantics.md (§3, INFERRED) that contract §4.6
/// summarises.
struct ConstraintResolver {
    let policy: MergePolicy

    /// The value of one constrained property: an attribute value or a to-one's destination.
    private enum KeyPart: Hashable {
        case value(AttributeValue)
        case object(ObjectID)
    }

    /// Resolves every conflict in `context`. Returns true when anything was merged.
    mutating func resolve(in context: inout ObjectContext) throws(ConstraintFailure) -> Bool {
        var merged = false
        // Each pass deletes at least one object, so the live count bounds the passes.
        for _ in 0...context.graph.count {
            let conflicts = Self.conflicts(in: context)
            guard !conflicts.isEmpty else { return merged }
            guard policy != .error else {
                // Every object of every conflict, as the error's conflict list holds them.
                let names = Set(conflicts.flatMap(\.1).compactMap { context.record($0)?.name }).sorted()
                throw ConstraintFailure(failure: SaveFailure(code: CoreDataErrorCode.managedObjectConstraintMerge,
                                                             objects: names))
            }
            for (constraint, group) in conflicts {
                // An earlier merge in this pass may have deleted members or changed their values.
                let members = group.filter(context.isLive)
                guard let first = members.first,
                      members.dropFirst().contains(where: { Self.key(of: $0, constraint, in: context.graph)
                          == Self.key(of: first, constraint, in: context.graph) })
                else { continue }
                let entities = Set(members.map { context.record($0)!.entity })
                guard entities.count == 1 else {
                    throw ConstraintFailure(failure: SaveFailure(code: CoreDataErrorCode.managedObjectMerge))
                }
                do {
                    try resolve(members, constraint, in: &context)
                } catch {
                    throw ConstraintFailure(failure: SaveFailure(code: CoreDataErrorCode.managedObjectMerge,
                                                                 object: context.record(first)?.name))
                }
                merged = true
            }
        }
        return merged
    }

    /// Groups of two or more live objects with equal constrained values, at least one of them
    /// inserted or changed in this save. A nil member never conflicts (coredata-semantics §3).
    private static func conflicts(in context: ObjectContext) -> [(StoreSchema.ConstraintInfo, [ObjectID])] {
        var result: [(StoreSchema.ConstraintInfo, [ObjectID])] = []
        for constraint in context.schema.constraints {
            var groups: [[KeyPart]: [ObjectID]] = [:]
            for id in context.graph.ids where context.isLive(id)
                && context.schema.entity(context.graph[id]!.entity, isKindOf: constraint.declaringEntity) {
                guard let key = key(of: id, constraint, in: context.graph) else { continue }
                groups[key, default: []].append(id)
            }
            for group in groups.values where group.count > 1 && group.contains(where: context.changed.contains) {
                result.append((constraint, group.sorted()))
            }
        }
        return result.sorted { $0.1[0] < $1.1[0] }
    }

    private static func key(of id: ObjectID, _ constraint: StoreSchema.ConstraintInfo,
                            in graph: ObjectGraph) -> [KeyPart]? {
        guard let record = graph[id] else { return nil }
        var parts: [KeyPart] = []
        for member in constraint.members {
            switch member {
            case .attribute(let slot):
                let value = record.attributes[slot]
                guard value != .null else { return nil }
                parts.append(.value(value))
            case .relationship(let slot):
                guard let destination = record.relationships[slot].first else { return nil }
                parts.append(.object(destination))
            }
        }
        return parts
    }

    // MARK: Resolution

    private func resolve(_ group: [ObjectID], _ constraint: StoreSchema.ConstraintInfo,
                         in context: inout ObjectContext) throws(StoreAdapterError) {
        let currentKey = Self.key(of: group[0], constraint, in: context.graph)
        // Database-level: an existing object whose saved values already matched (coredata-semantics §3).
        let stored = group.first { id in
            !context.inserted.contains(id) && Self.key(of: id, constraint, in: context.saved) == currentKey
        }
        if let stored {
            try resolveAgainstStore(stored, others: group.filter { $0 != stored }, in: &context)
        } else {
            try resolveInContext(group, in: &context)
        }
    }

    /// N (new or changed) against D (saved).
    private func resolveAgainstStore(_ stored: ObjectID, others: [ObjectID],
                                     in context: inout ObjectContext) throws(StoreAdapterError) {
        switch policy {
        case .mergeByPropertyObjectTrump:
            for other in others {
                let wasInserted = context.inserted.contains(other)
                // An inserted N gives all its values, nils included; a changed N its changes.
                for slot in context.record(other)!.attributes.indices
                where wasInserted || Self.changedAttribute(slot, of: other, in: context) {
                    context.set(stored, slot: slot, to: context.record(other)!.attributes[slot])
                }
                try moveToOneDestinations(from: other, to: stored, in: &context)
                try moveToManyMembers(from: other, to: stored, in: &context)
                context.delete(other)
            }
        case .mergeByPropertyStoreTrump:
            for other in others {
                try moveToManyMembers(from: other, to: stored, in: &context)
                context.delete(other)
            }
        case .overwrite:
            let survivor = others[0]
            for other in others.dropFirst() { context.delete(other) }
            try moveToManyMembers(from: stored, to: survivor, in: &context)
            context.delete(stored)
        case .rollback:
            for other in others {
                if context.inserted.contains(other) {
                    context.discard(other)
                } else {
                    try context.revert(other)
                }
            }
        case .error:
            preconditionFailure("the error policy fails before resolving")
        }
    }

    /// Objects saved together, none of which matched in the store.
    private func resolveInContext(_ group: [ObjectID], in context: inout ObjectContext) throws(StoreAdapterError) {
        // Prefer a saved object (lowest primary key); otherwise one of the new ones — which one is
        // unspecified (open question 3), and the suite never checks it.
        let survivor = group.first { !context.inserted.contains($0) } ?? group[0]
        let survivorIsNew = context.inserted.contains(survivor)
        for loser in group where loser != survivor {
            switch policy {
            case .mergeByPropertyObjectTrump, .mergeByPropertyStoreTrump:
                let loserIsNew = context.inserted.contains(loser)
                for (slot, value) in context.record(loser)!.attributes.enumerated() {
                    let loserSetIt = loserIsNew ? value != .null : Self.changedAttribute(slot, of: loser, in: context)
                    let survivorKeeps = !survivorIsNew && Self.changedAttribute(slot, of: survivor, in: context)
                    if loserSetIt && !survivorKeeps { context.set(survivor, slot: slot, to: value) }
                }
                try moveToManyMembers(from: loser, to: survivor, in: &context)
                context.delete(loser)
            case .overwrite, .rollback:
                context.delete(loser)
            case .error:
                preconditionFailure("the error policy fails before resolving")
            }
        }
    }

    private static func changedAttribute(_ slot: Int, of id: ObjectID, in context: ObjectContext) -> Bool {
        guard let original = context.saved[id] else { return true }
        return original.attributes[slot] != context.record(id)!.attributes[slot]
    }

    /// N's to-one destinations move to D; D's old destination is deleted when that
    /// relationship cascades (coredata-semantics §3, ObjectTrump).
    private func moveToOneDestinations(from source: ObjectID, to target: ObjectID,
                                       in context: inout ObjectContext) throws(StoreAdapterError) {
        let relationships = context.schema.entities[context.record(source)!.entity].relationships
        for (slot, relationship) in relationships.enumerated() where !relationship.isToMany {
            guard let destination = context.record(source)!.relationships[slot].first else { continue }
            let previous = context.record(target)!.relationships[slot].first
            try context.unlink(source, slot: slot, from: destination)
            try context.link(target, slot: slot, to: destination)
            if let previous, previous != destination, relationship.deleteRule == .cascade {
                context.delete(previous)
            }
        }
    }

    /// Every member of N's to-many relationships moves to the survivor.
    private func moveToManyMembers(from source: ObjectID, to target: ObjectID,
                                   in context: inout ObjectContext) throws(StoreAdapterError) {
        let relationships = context.schema.entities[context.record(source)!.entity].relationships
        for (slot, relationship) in relationships.enumerated() where relationship.isToMany {
            for member in context.record(source)!.relationships[slot] {
                try context.unlink(source, slot: slot, from: member)
                try context.link(target, slot: slot, to: member)
            }
        }
    }
}

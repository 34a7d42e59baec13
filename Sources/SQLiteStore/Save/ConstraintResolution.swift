import Conformance
import GRDB

/// Step 3 of a save (contract §4.6, coredata-semantics §3, INFERRED): find uniqueness conflicts among the
/// objects inserted or changed in this save — against each other (context-level) and against
/// saved rows (database-level) — and resolve them by the merge policy, or fail.
struct ConstraintResolution {
    let policy: MergePolicy

    /// One set of live objects sharing every constrained value.
    private struct Conflict {
        /// A saved object whose saved values already had this key (database-level), if any.
        var stored: ObjectID?
        /// The others: objects inserted or changed in this save, inserted ones in insertion
        /// order, then changed ones by primary key.
        var pending: [ObjectID]
    }

    /// A constrained value: an attribute's value, or a to-one's destination.
    private enum KeyPart: Hashable {
        case value(AttributeValue)
        case object(ObjectID)
    }

    /// Resolves every conflict, changing `context` as the policy says; returns the failure
    /// when the policy cannot resolve them (133021 under `error`, 133020 for objects of
    /// different entities).
    func resolve(_ context: inout ObjectContext, _ db: Database) throws -> ValidationFailure? {
        // Each resolution deletes or reverts at least one member, so this terminates; conflicts
        // are searched again after each because a merge changes the objects involved.
        while let conflict = try firstConflict(in: &context, db) {
            let members = (conflict.stored.map { [$0] } ?? []) + conflict.pending
            guard policy != .error else {
                // The objects of the first conflict found; the save stops there.
                return ValidationFailure(code: CoreDataErrorCode.managedObjectConstraintMerge, objects: members)
            }
            let entities = try members.map { try context.liveState($0, db).entity }
            guard Set(entities).count == 1 else {
                return ValidationFailure(code: CoreDataErrorCode.managedObjectMerge)
            }
            if let stored = conflict.stored {
                try resolveAgainstStore(stored, conflict.pending, &context, db)
            } else {
                try resolveInContext(conflict.pending, &context, db)
            }
        }
        return nil
    }

    // MARK: Finding conflicts

    private func firstConflict(in context: inout ObjectContext, _ db: Database) throws -> Conflict? {
        let candidates = candidateOrder(context)
        for entity in context.schema.entities {
            for constraint in entity.constraints where constraint.declaringEntity == entity.index {
                var groups: [[KeyPart]: [ObjectID]] = [:]
                var keysInOrder: [[KeyPart]] = []
                for id in candidates {
                    let state = context.objects[id]!
                    guard constraint.kinds.contains(state.entity), let key = key(of: state, constraint) else { continue }
                    if groups[key] == nil { keysInOrder.append(key) }
                    groups[key, default: []].append(id)
                }
                for key in keysInOrder {
                    var pending = groups[key]!
                    // Two untouched saved rows cannot share a key (the unique index forbids
                    // it), so there is at most one.
                    var stored = try storedMatches(key, constraint, excluding: Set(pending), &context, db).first
                    guard pending.count + (stored == nil ? 0 : 1) >= 2 else { continue }
                    if stored == nil {
                        // A changed object that already had this key in the file is the
                        // database's side of the conflict too (coredata-semantics §3).
                        for (position, id) in pending.enumerated() where !context.objects[id]!.isInserted {
                            if let saved = try savedState(of: id, &context, db), self.key(of: saved, constraint) == key {
                                stored = pending.remove(at: position)
                                break
                            }
                        }
                    }
                    return Conflict(stored: stored, pending: pending)
                }
            }
        }
        return nil
    }

    /// Live objects inserted or changed in this save.
    private func candidateOrder(_ context: ObjectContext) -> [ObjectID] {
        let inserted = context.insertionOrder.filter { context.objects[$0]?.isLive == true }
        let changed = context.objects.filter { !$0.value.isInserted && $0.value.isLive && $0.value.isChanged }.keys.sorted()
        return inserted + changed
    }

    private func key(of state: ObjectState, _ constraint: ConstraintMapping) -> [KeyPart]? {
        var parts: [KeyPart] = []
        for member in constraint.members {
            switch member {
            case .attribute(let slot):
                // Null never conflicts: stored rows compare like SQLite NULLs (contract §4.6).
                guard state.attributes[slot] != .null else { return nil }
                parts.append(.value(state.attributes[slot]))
            case .toOne(let slot):
                guard let destination = state.toOnes[slot] else { return nil }
                parts.append(.object(destination))
            case .toMany:
                return nil
            }
        }
        return parts
    }

    /// Saved rows with this key that no pending change has touched (a changed row is judged by
    /// its current values, as a candidate; a deleted one no longer counts).
    private func storedMatches(_ key: [KeyPart], _ constraint: ConstraintMapping, excluding pending: Set<ObjectID>,
                               _ context: inout ObjectContext, _ db: Database) throws -> [ObjectID] {
        let entity = context.schema.entities[constraint.declaringEntity]
        let table = context.schema.tables[entity.tableIndex]
        var conditions = ["\"Z_ENT\" BETWEEN \(constraint.kinds.lowerBound + 1) AND \(constraint.kinds.upperBound + 1)"]
        var arguments: [DatabaseValue] = []
        for (member, part) in zip(constraint.members, key) {
            conditions.append("\(table.columns[entity.column(of: member)!].name.quoted) = ?")
            switch part {
            case .value(let value): arguments.append(StoredValue.databaseValue(value))
            case .object(let id): arguments.append(id.primaryKey.databaseValue)
            }
        }
        let sql = "SELECT \"Z_PK\" FROM \(table.name.quoted) WHERE " + conditions.joined(separator: " AND ") + " ORDER BY \"Z_PK\""
        let keys = try StoredInteger.fetchPrimaryKeys(db, sql: sql, arguments: StatementArguments(arguments), table: table.name.name)
        return try keys.map { ObjectID(table: entity.tableIndex, primaryKey: $0) }.filter { id in
            guard !pending.contains(id) else { return false }
            guard let state = context.objects[id] else { return try !context.isSetDeleted(id, db) }
            return state.isLive && !state.isChanged && !state.isInserted
        }
    }

    // MARK: Resolving

    /// Database-level: `stored` is a saved row, `pending` the objects of this save matching it.
    private func resolveAgainstStore(_ stored: ObjectID, _ pending: [ObjectID], _ context: inout ObjectContext,
                                     _ db: Database) throws {
        switch policy {
        case .error:
            return
        case .mergeByPropertyObjectTrump:
            // The stored object survives with the new values: all of an inserted object's
            // (nils included), the changed ones of an updated object; relationships move over.
            for loser in pending {
                let state = context.objects[loser]!
                let slots = state.isInserted ? Array(state.attributes.indices) : try changedAttributes(of: loser, &context, db)
                for slot in slots { context.setAttribute(stored, slot: slot, to: state.attributes[slot]) }
                try moveToOnes(from: loser, to: stored, &context, db)
                try moveToManyMembers(from: loser, to: stored, &context, db)
                try context.delete(loser, db)
            }
        case .mergeByPropertyStoreTrump:
            for loser in pending {
                try moveToManyMembers(from: loser, to: stored, &context, db)
                try context.delete(loser, db)
            }
        case .overwrite:
            // The new object replaces the stored one, taking over its to-many members.
            let survivor = pending[0]
            try moveToManyMembers(from: stored, to: survivor, &context, db)
            try context.delete(stored, db)
            for loser in pending.dropFirst() { try context.delete(loser, db) }
        case .rollback:
            for loser in pending {
                if context.objects[loser]!.isInserted {
                    try discard(loser, &context, db)
                } else {
                    try revert(loser, &context, db)
                }
            }
        }
    }

    /// Context-level: only objects of this save conflict. The survivor is a changed saved
    /// object if there is one, else the first inserted (which new object survives is
    /// unspecified; scenarios do not pin it down).
    private func resolveInContext(_ pending: [ObjectID], _ context: inout ObjectContext, _ db: Database) throws {
        let survivor = pending.first { !context.objects[$0]!.isInserted } ?? pending[0]
        let losers = pending.filter { $0 != survivor }
        let survivorKeeps = context.objects[survivor]!.isInserted ? [] : Set(try changedAttributes(of: survivor, &context, db))
        for loser in losers {
            if policy == .mergeByPropertyObjectTrump || policy == .mergeByPropertyStoreTrump {
                // Each value a loser set (every non-nil one for a new loser) goes to the
                // survivor, unless a saved survivor changed that property itself.
                let state = context.objects[loser]!
                let slots = state.isInserted
                    ? state.attributes.indices.filter { state.attributes[$0] != .null }
                    : try changedAttributes(of: loser, &context, db)
                for slot in slots where !survivorKeeps.contains(slot) {
                    context.setAttribute(survivor, slot: slot, to: state.attributes[slot])
                }
                try moveToManyMembers(from: loser, to: survivor, &context, db)
            }
            try context.delete(loser, db)
        }
    }

    private func moveToOnes(from loser: ObjectID, to survivor: ObjectID, _ context: inout ObjectContext, _ db: Database) throws {
        let entity = context.schema.entities[context.objects[loser]!.entity]
        for (index, relationship) in entity.toOnes.enumerated() {
            guard let destination = context.objects[loser]!.toOnes[index] else { continue }
            let replaced = context.objects[survivor]!.toOnes[index]
            try context.unlink(loser, .toOne(index), from: destination, db)
            try context.link(survivor, .toOne(index), to: destination, db)
            // The survivor's old destination goes if the relationship cascades (coredata-semantics §3).
            if let replaced, replaced != destination, relationship.relationship.deletionRule == .cascade {
                try context.delete(replaced, db)
            }
        }
    }

    private func moveToManyMembers(from loser: ObjectID, to survivor: ObjectID, _ context: inout ObjectContext,
                                   _ db: Database) throws {
        let entity = context.schema.entities[context.objects[loser]!.entity]
        for index in entity.toManys.indices {
            for member in try context.members(of: loser, index, db) {
                try context.unlink(loser, .toMany(index), from: member, db)
                try context.link(survivor, .toMany(index), to: member, db)
            }
        }
    }

    /// Drops an inserted object as if it had never been inserted: it leaves every relationship
    /// (whatever the delete rules say) and is not written.
    private func discard(_ id: ObjectID, _ context: inout ObjectContext, _ db: Database) throws {
        let entity = context.schema.entities[context.objects[id]!.entity]
        for (slot, _) in entity.relationshipSlots {
            for destination in try context.destinations(id, slot, db) {
                try context.unlink(id, slot, from: destination, db)
            }
        }
        context.objects[id]!.isDeleted = true
    }

    /// Puts a changed saved object back as the file holds it: attributes, and relationships
    /// through link and unlink, so that the inverses follow.
    private func revert(_ id: ObjectID, _ context: inout ObjectContext, _ db: Database) throws {
        guard let saved = try savedState(of: id, &context, db) else { return }
        context.objects[id]!.attributes = saved.attributes
        for index in saved.toOnes.indices {
            let current = context.objects[id]!.toOnes[index]
            guard current != saved.toOnes[index] else { continue }
            if let current { try context.unlink(id, .toOne(index), from: current, db) }
            if let wanted = saved.toOnes[index], try context.isLive(wanted, db) {
                try context.link(id, .toOne(index), to: wanted, db)
            }
        }
        for index in saved.toManys.indices {
            // A to-many never loaded was never changed.
            guard let members = context.objects[id]!.toManys[index] else { continue }
            let wanted = try members.saved.filter { try context.isLive($0, db) }
            for member in members.current where !wanted.contains(member) {
                try context.unlink(id, .toMany(index), from: member, db)
            }
            for member in wanted where !context.objects[id]!.toManys[index]!.current.contains(member) {
                try context.link(id, .toMany(index), to: member, db)
            }
        }
    }

    /// The attribute slots whose current value differs from the saved one.
    private func changedAttributes(of id: ObjectID, _ context: inout ObjectContext, _ db: Database) throws -> [Int] {
        let current = context.objects[id]!.attributes
        guard let saved = try savedState(of: id, &context, db) else { return Array(current.indices) }
        return current.indices.filter { current[$0] != saved.attributes[$0] }
    }

    /// The object as the file holds it, ignoring pending changes.
    private func savedState(of id: ObjectID, _ context: inout ObjectContext, _ db: Database) throws -> ObjectState? {
        let statement = try db.cachedStatement(sql: context.schema.tables[id.table].selectByKeySQL)
        guard let row = try Row.fetchOne(statement, arguments: [id.primaryKey]) else { return nil }
        return try context.decode(row, table: id.table)
    }
}

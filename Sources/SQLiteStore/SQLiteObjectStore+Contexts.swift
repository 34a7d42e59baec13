import Conformance
import GRDB

/// What contract 1.4 asks of one context (§4.11): refreshing, `validateValue(_:forKey:)`,
/// change tracking and fetch requests.
extension SQLiteObjectStore {
    /// `refresh(_:mergeChanges:)` of one object.
    public func refresh(_ object: ObjectID, mergeChanges: Bool) throws {
        try inDatabase { db in try context.refresh(object, mergingChanges: mergeChanges, db) }
    }

    /// `refreshAllObjects()`: every object the context holds, refreshed merging its changes.
    public func refreshAll() throws {
        try inDatabase { db in
            for id in Set(context.objects.keys).union(context.keptTransients.keys).sorted() {
                try context.refresh(id, mergingChanges: true, db)
            }
        }
    }

    /// `validateValue(_:forKey:)`: the failures `value` would give `attribute` of `object`
    /// (1570 for nil in a required attribute, one per limit broken), without setting it.
    public func validate(_ value: AttributeValue, for attribute: String, of object: ObjectID) throws -> [ValidationFailure] {
        try inDatabase { db in
            let entity = schema.entities[try context.liveState(object, db).entity]
            let mapping = entity.attributes[try attributeSlot(attribute, of: entity)]
            let typed: AttributeValue
            do {
                typed = try value.coerced(to: mapping.type)
            } catch {
                throw SQLiteStoreError(.invalidRequest, "'\(attribute)': \(error)")
            }
            var validation = SaveValidation()
            return validation.violations(of: typed, against: mapping).map {
                ValidationFailure(code: $0, object: object, key: attribute, value: typed == .null ? nil : typed)
            }
        }
    }

    /// The objects inserted, updated and deleted since the last save.
    public func changeSets() throws -> (inserted: [ObjectID], updated: [ObjectID], deleted: [ObjectID]) {
        try inDatabase { db in try context.changeSets(db) }
    }

    /// Whether the object is live for this context — held and not deleted, or else saved in
    /// the file — without reading it into the context.
    public func holdsOrStores(_ object: ObjectID) throws -> Bool {
        if let state = context.objects[object] { return state.isLive }
        if try inDatabase({ db in try context.isSetDeleted(object, db) }) { return false }
        return try savedExists(object)
    }

    /// `isDeleted`: deleted and not yet saved.
    public func isDeleted(_ object: ObjectID) throws -> Bool {
        try inDatabase { db in try context.state(object, db)?.isDeleted ?? false }
    }

    /// Executes a fetch request: its candidates are the live objects of the entity's kind with
    /// their current values, or, without `includesPendingChanges`, the rows in the file as
    /// saved; `FetchRequest.execute` filters, sorts and pages them. `name` gives a to-one
    /// destination's name for a predicate comparing it.
    public func execute(_ request: Conformance.FetchRequest, name: (ObjectID) -> String?) throws -> [ObjectID] {
        let entity = try entityMapping(named: request.entity)
        func run(_ context: inout ObjectContext, _ db: Database) throws -> [ObjectID] {
            let candidates = try context.fetch(entity, where: [], db)
            var states: [ObjectID: ObjectState] = [:]
            func state(_ id: ObjectID) throws -> ObjectState? {
                if let known = states[id] { return known }
                let found = try context.state(id, db)
                states[id] = found
                return found
            }
            return try request.execute(over: candidates) { id, path in
                try KeyPathValue.read(path, of: id, property: { id, key in
                    guard let object = try state(id) else { return nil }
                    let entity = schema.entities[object.entity]
                    switch entity.slotsByName[key] {
                    case .attribute(let slot)?: return .attribute(object.attributes[slot])
                    case .toOne(let slot)?: return .toOne(object.toOnes[slot])
                    default: throw SQLiteStoreError(.noSuchProperty, "'\(entity.name)' has no attribute or to-one relationship '\(key)'")
                    }
                }, name: name)
            }
        }
        if request.includesPendingChanges {
            return try inDatabase { db in try run(&context, db) }
        }
        return try readingSaved { context, db in try run(&context, db) }
    }

    /// Optimistic locking (contract §4.10), inside the save's transaction: every saved object
    /// the context changed or deleted whose row's `Z_OPT` is not the one it read is a conflict.
    /// Under `error` the save fails with 133020 naming the objects and, for each, the attributes
    /// and to-ones whose stored value differs from the one read; the other policies merge
    /// property by property (mine: the context's value, read: the value it read, stored: the
    /// row's) and the context counts the row as read at its current version.
    func resolveLockingConflicts(in working: inout ObjectContext, policy: MergePolicy,
                                 _ db: Database) throws -> ValidationFailure? {
        var conflicts: [(id: ObjectID, stored: ObjectState?)] = []
        for id in working.objects.keys.sorted() {
            let state = working.objects[id]!
            guard !state.isInserted, state.isChanged || state.isDeleted else { continue }
            let statement = try db.cachedStatement(sql: schema.tables[id.table].selectByKeySQL)
            guard let row = try Row.fetchOne(statement, arguments: [id.primaryKey]) else {
                conflicts.append((id, nil))
                continue
            }
            let stored = try working.decode(row, table: id.table)
            if stored.readVersion != state.readVersion { conflicts.append((id, stored)) }
        }
        guard !conflicts.isEmpty else { return nil }
        if policy == .error {
            var details: [ValidationFailure] = []
            for (id, stored) in conflicts {
                let mine = working.objects[id]!
                let entity = schema.entities[mine.entity]
                guard let stored else {
                    details.append(ValidationFailure(code: CoreDataErrorCode.managedObjectMerge, object: id))
                    continue
                }
                for (slot, attribute) in entity.attributes.enumerated()
                where !attribute.attribute.isTransient && stored.attributes[slot] != mine.savedAttributes[slot] {
                    details.append(ValidationFailure(code: CoreDataErrorCode.managedObjectMerge, object: id, key: attribute.name))
                }
                for (slot, relationship) in entity.toOnes.enumerated() where stored.toOnes[slot] != mine.savedToOnes[slot] {
                    details.append(ValidationFailure(code: CoreDataErrorCode.managedObjectMerge, object: id,
                                                     key: relationship.relationship.name))
                }
            }
            return ValidationFailure(code: CoreDataErrorCode.managedObjectMerge, details: details, objects: conflicts.map(\.id))
        }
        for (id, stored) in conflicts {
            // A row deleted meanwhile, or an object this context deletes: the deletion stands
            // (not checked by the suite, coredata-semantics open question 13).
            guard let stored, var merged = working.objects[id], !merged.isDeleted else { continue }
            for (slot, attribute) in schema.entities[merged.entity].attributes.enumerated() where !attribute.attribute.isTransient {
                merged.attributes[slot] = policy.resolved(mine: merged.attributes[slot], read: merged.savedAttributes[slot], stored: stored.attributes[slot])
            }
            for slot in merged.toOnes.indices {
                merged.toOnes[slot] = policy.resolved(mine: merged.toOnes[slot], read: merged.savedToOnes[slot], stored: stored.toOnes[slot])
            }
            merged.savedAttributes = stored.attributes
            merged.savedToOnes = stored.toOnes
            merged.readVersion = stored.readVersion
            working.objects[id] = merged
        }
        return nil
    }
}

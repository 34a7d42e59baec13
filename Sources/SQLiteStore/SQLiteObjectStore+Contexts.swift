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
            guard case .attribute(let slot)? = entity.slotsByName[attribute] else {
                throw SQLiteStoreError(.noSuchProperty, "'\(entity.name)' has no attribute '\(attribute)'")
            }
            let mapping = entity.attributes[slot]
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

    /// `isDeleted`: deleted and not yet saved.
    public func isDeleted(_ object: ObjectID) throws -> Bool {
        try inDatabase { db in try context.state(object, db)?.isDeleted ?? false }
    }

    /// Executes a fetch request: its candidates are the live objects of the entity's kind with
    /// their current values, or, without `includesPendingChanges`, the rows in the file as
    /// saved; `FetchRequest.execute` filters, sorts and pages them. `name` gives a to-one
    /// destination's name for a predicate comparing it.
    public func execute(_ request: Conformance.FetchRequest, name: (ObjectID) -> String?) throws -> [ObjectID] {
        guard let entity = schema.entity(named: request.entity) else {
            throw SQLiteStoreError(.noSuchProperty, "the model has no entity '\(request.entity)'")
        }
        func run(_ context: inout ObjectContext, _ db: Database) throws -> [ObjectID] {
            let candidates = try context.fetch(entity, where: [], db)
            var states: [ObjectID: ObjectState] = [:]
            func state(_ id: ObjectID) throws -> ObjectState? {
                if let known = states[id] { return known }
                let found = try context.state(id, db)
                states[id] = found
                return found
            }
            var failure: (any Error)?
            let found = request.execute(over: candidates) { id, path in
                do {
                    return try value(at: path, of: id, state: state, name: name)
                } catch {
                    failure = failure ?? error
                    return .null
                }
            }
            if let failure { throw failure }
            return found
        }
        if request.includesPendingChanges {
            return try inDatabase { db in try run(&context, db) }
        }
        return try readingSaved { context, db in try run(&context, db) }
    }

    private func value(at path: [String], of id: ObjectID, state: (ObjectID) throws -> ObjectState?,
                       name: (ObjectID) -> String?) throws -> AttributeValue {
        var current = id
        for (index, key) in path.enumerated() {
            guard let object = try state(current) else { return .null }
            let entity = schema.entities[object.entity]
            switch entity.slotsByName[key] {
            case .attribute(let slot)?:
                return index == path.count - 1 ? object.attributes[slot] : .null
            case .toOne(let slot)?:
                guard let next = object.toOnes[slot] else { return .null }
                if index == path.count - 1 { return name(next).map(AttributeValue.string) ?? .null }
                current = next
            default:
                throw SQLiteStoreError(.noSuchProperty, "'\(entity.name)' has no attribute or to-one relationship '\(key)'")
            }
        }
        return .null
    }
}

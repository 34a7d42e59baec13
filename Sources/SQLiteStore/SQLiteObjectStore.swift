import Conformance
import DataModel
import Foundation
import GRDB

/// A Core Data–shaped object store in one SQLite file: tables laid out as Core Data's SQLite
/// store lays them out (`docs/sqlite-store.md`), and Core Data's semantics for delete rules,
/// validation, uniqueness constraints and merge policies (`docs/adapter-contract.md`).
///
/// Changes are pending, in memory, until `save(mergePolicy:)` validates them and writes them
/// in one SQLite transaction — like a managed object context over a persistent store. Reads
/// see the saved rows overlaid with the pending changes. A failed save writes nothing and
/// keeps the changes pending; `reset()` drops them.
///
/// ```swift
/// let store = try SQLiteObjectStore(path: "Company.sqlite", model: model)
/// let sales = try store.insert("Department", values: ["name": .string("Sales")])
/// let alice = try store.insert("Employee", values: ["name": .string("Alice")])
/// try store.link(alice, "department", to: sales)
/// try store.save()
/// try store.related(sales, "employees")  // [alice]
/// ```
///
/// Not thread-safe: use a store from one thread at a time.
public final class SQLiteObjectStore {
    /// What the store may do to its file.
    public enum Access: Sendable, Hashable {
        /// Create the file if it is missing or empty, or open a store momlint created for
        /// this model. A store Core Data wrote is refused: momlint does not write to a file it
        /// did not create unless asked.
        case readWrite
        /// Read only, in place as immutable or from a private copy (`StoreSnapshot`): the file,
        /// its `-wal` and `-shm` stay byte-identical.
        /// Every change is refused.
        case readOnly
        /// Also write into a store Core Data wrote, when its layout matches the model; a save
        /// writes only the columns it changes, and first checks that each value it writes reads
        /// back as set (`RoundTripCheck`).
        case readWriteIncludingCoreDataStores
    }

    /// The database file.
    public let path: String
    public let access: Access
    /// What the file said about itself when it was opened (nil for a file created now).
    public let fileDescription: StoreFileDescription?
    let schema: StoreSchema
    private var queue: DatabaseQueue?
    /// The read-only view a `.readOnly` store reads from (a private copy is deleted with it).
    private(set) var snapshot: StoreSnapshot?
    var context: ObjectContext
    /// False to delete object by object only, never as a set (`ObjectContext.deleteAsSet`):
    /// for tests that compare the two.
    var allowsSetDeletion = true {
        didSet { context.allowsSetDeletion = allowsSetDeletion }
    }
    /// Optimistic locking: on when other connections write the same file (a second context on
    /// the store, contract §4.10). A save then compares each changed or deleted row's `Z_OPT`
    /// with the version read, and fails with 133020 or merges by its policy.
    public var detectsConflicts = false

    /// Opens the store at `path` for `model`.
    ///
    /// The file is recognised before anything writes to it, whatever `access` says: its header
    /// is read with plain file I/O, then its metadata through a view that cannot write
    /// (`StoreSnapshot`), which creates no `-wal`, `-shm` or `-journal` beside it; only then is
    /// it opened for writing, and only if it is a momlint store of this model (or, with
    /// `.readWriteIncludingCoreDataStores`, a Core Data store whose layout matches). No journal
    /// mode is changed and no table is created in a file momlint did not create. Throws
    /// `SQLiteStoreError` when the model cannot be mapped, or the file is not an SQLite
    /// database, is encrypted, damaged or truncated, or belongs to another model.
    public convenience init(path: String, model: Model, access: Access = .readWrite) throws {
        let schema = try StoreSchema(model: model)
        try self.init(path: path, access: access) { _ in (model, schema) }
    }

    /// Opens the store at `path` read only, recognised once, as `init(path:model:access:)`
    /// recognises a file, with the model `reader` chooses from what the file says of itself
    /// (`momlint store dump`: the version whose hashes are the store's).
    public convenience init(readingOnly path: String, reader: (StoreFileDescription) -> Model) throws {
        try self.init(path: path, access: .readOnly) { description in
            // A read-only store is never created: nil is not reached.
            guard let description else { throw SQLiteStoreError.nothingToRead(at: path) }
            let model = reader(description)
            return (model, try StoreSchema(model: model))
        }
    }

    /// `modelFor` gives the model and its schema, from the file's description (nil for a file
    /// created now) once the file is recognised.
    private init(path: String, access: Access,
                 modelFor: (StoreFileDescription?) throws -> (Model, StoreSchema)) throws {
        self.path = path
        self.access = access
        let model: Model
        let queue: DatabaseQueue
        var readOnlySnapshot: StoreSnapshot?
        switch try SQLiteFileHeader.inspect(path) {
        case .absent, .empty:
            guard access != .readOnly else {
                throw SQLiteStoreError.nothingToRead(at: path)
            }
            (model, schema) = try modelFor(nil)
            let schema = schema
            fileDescription = nil
            queue = try Self.translatingErrors(path: path) {
                let queue = try DatabaseQueue(path: path)
                try queue.inDatabase { db in
                    // Core Data's SQLite stores use WAL (docs/coredata-semantics.md §7). Set
                    // once, on a file momlint creates: the mode is persistent.
                    _ = try String.fetchOne(db, sql: "PRAGMA journal_mode = WAL")
                    try db.inTransaction {
                        try StoreMetadata.create(schema, in: db)
                        return .commit
                    }
                }
                return queue
            }
        case .sqlite(let header):
            // Recognised through a view that cannot write (`StoreSnapshot`: the file opened as
            // immutable, or a private copy), whatever the access. A read-write connection
            // changes what is beside a file even when it only reads: on a WAL file it creates
            // `-wal` and `-shm` and deletes them on close. So the file is opened for writing
            // only once it is known to be one momlint may write to, and in its own journal mode
            // (GRDB's WAL set-up would convert a rollback-journal file for good and write a
            // probe table).
            let snapshot = try StoreSnapshot(of: path, header: header)
            let description: StoreFileDescription
            do {
                description = try snapshot.queue.inDatabase { db in try StoreFileDescription.read(db, path: path, isWAL: header.isWAL) }
            } catch {
                throw snapshot.describing(error)
            }
            (model, schema) = try modelFor(description)
            try StoreMetadata.verify(schema, against: description, access: access, model: model)
            fileDescription = description
            if access == .readOnly {
                readOnlySnapshot = snapshot
                queue = snapshot.queue
            } else {
                queue = try Self.translatingErrors(path: path) { try DatabaseQueue(path: path) }
            }
        }
        let schema = schema
        let keys: [Int64]
        do {
            keys = try queue.inDatabase { db in try StoreMetadata.highestPrimaryKeys(schema, in: db) }
        } catch {
            throw readOnlySnapshot?.describing(error) ?? SQLiteStoreError.describing(error, path: path)
        }
        snapshot = readOnlySnapshot
        self.queue = queue
        context = ObjectContext(schema: schema, highestPrimaryKeys: keys)
    }

    deinit {
        try? queue?.close()
    }

    /// Closes the file. Pending changes are discarded; any later call throws.
    public func close() throws {
        guard let queue else { return }
        self.queue = nil
        defer { snapshot = nil }
        context.discardPendingChanges()
        try Self.translatingErrors(path: path) { try queue.close() }
    }

    // MARK: Changes

    /// Inserts a new object of `entityName`; attributes not in `values` take the model's
    /// default (or null). Values are read as the attributes' types (`AttributeValue.coerced`).
    @discardableResult
    public func insert(_ entityName: String, values: [String: AttributeValue] = [:]) throws -> ObjectID {
        try changing { _ in try insertObject(entityName, values: values) }
    }

    private func insertObject(_ entityName: String, values: [String: AttributeValue]) throws -> ObjectID {
        let entity = try entityMapping(named: entityName)
        guard !entity.isAbstract else {
            throw SQLiteStoreError(.invalidRequest, "'\(entityName)' is abstract; insert one of its sub-entities")
        }
        var slots: [Int: AttributeValue] = [:]
        for (name, value) in values {
            let slot = try attributeSlot(name, of: entity)
            slots[slot] = try coerce(value, for: entity.attributes[slot], of: entity)
        }
        return context.insert(entity: entity, values: slots)
    }

    /// Sets one attribute of a live object.
    public func set(_ attribute: String, of object: ObjectID, to value: AttributeValue) throws {
        try changing { db in
            let entity = schema.entities[try context.liveState(object, db).entity]
            let slot = try attributeSlot(attribute, of: entity)
            context.setAttribute(object, slot: slot, to: try coerce(value, for: entity.attributes[slot], of: entity))
        }
    }

    /// Adds `destination` to a relationship: replaces a to-one, appends to a to-many (at the
    /// end of an ordered one; a member already there stays where it is). Maintains the inverse.
    public func link(_ object: ObjectID, _ relationship: String, to destination: ObjectID) throws {
        try changing { db in
            let slot = try relationshipSlot(relationship, of: object, destination: destination, db)
            try context.link(object, slot, to: destination, db)
        }
    }

    /// Removes `destination` from a relationship (a to-one becomes nil) and from its inverse.
    /// The destination may be an object deleted since the last save (a reference a No Action
    /// or Deny rule left behind); removing it is how such a reference is repaired.
    public func unlink(_ object: ObjectID, _ relationship: String, from destination: ObjectID) throws {
        try changing { db in
            let slot = try relationshipSlot(relationship, of: object, destination: nil, db)
            try context.unlink(object, slot, from: destination, db)
        }
    }

    /// Deletes a live object and runs the delete rules at once (Core Data's
    /// `processPendingChanges()`); the rows go at the next save.
    public func delete(_ object: ObjectID) throws {
        try changing { db in
            _ = try context.liveState(object, db)
            try context.delete(object, db)
        }
    }

    /// Validates every pending change and writes them in one SQLite transaction, resolving
    /// uniqueness conflicts by `mergePolicy`. Throws `SaveFailedError` (Core Data's error
    /// codes) when validation, a Deny rule or a constraint refuses the save: nothing is written
    /// and the changes stay pending.
    public func save(mergePolicy: MergePolicy = .error) throws {
        // Like a context without changes, a save with nothing pending touches nothing.
        guard context.hasChanges else { return }
        var working = context
        let refusal: ValidationFailure? = try inDatabase { db in
            var refusal: ValidationFailure?
            try db.inTransaction(.immediate) {
                var validation = SaveValidation()
                refusal = ValidationFailure.combining(try validation.failures(in: &working, db))
                if refusal == nil && detectsConflicts {
                    refusal = try resolveLockingConflicts(in: &working, policy: mergePolicy, db)
                    if refusal == nil { refusal = ValidationFailure.combining(try validation.failures(in: &working, db)) }
                }
                if refusal == nil {
                    refusal = try ConstraintResolution(policy: mergePolicy).resolve(&working, db)
                }
                guard refusal == nil else { return .rollback }
                if fileDescription?.writer == .coreData {
                    try RoundTripCheck(context: working, path: path).verify()
                }
                try SaveWriter(context: working, db: db).write()
                return .commit
            }
            return refusal
        }
        if let refusal { throw SaveFailedError(failure: refusal) }
        // Saved: every object is read again from the file when next needed — but a transient
        // attribute, which the file does not hold, keeps its value in the context until the
        // object is refreshed or the context reset, as Core Data's does (contract §4.11).
        let kept = working.transientValuesToKeep()
        context = ObjectContext(schema: schema, highestPrimaryKeys: working.highestPrimaryKeys, allowsSetDeletion: allowsSetDeletion)
        context.keptTransients = kept
        if detectsConflicts { context.keepSaved(working) }
    }

    /// Discards every pending change, like `NSManagedObjectContext.reset()`.
    public func reset() {
        context.discardPendingChanges()
    }

    /// True when there are pending changes.
    public var hasChanges: Bool { context.hasChanges }

    // MARK: Queries (saved rows plus pending changes)

    /// True when the object is live: inserted or saved, and not deleted.
    public func exists(_ object: ObjectID) throws -> Bool {
        try inDatabase { db in try context.isLive(object, db) }
    }

    /// The name of the object's entity.
    public func entityName(of object: ObjectID) throws -> String {
        try inDatabase { db in schema.entities[try context.liveState(object, db).entity].name }
    }

    /// One attribute of a live object.
    public func value(_ attribute: String, of object: ObjectID) throws -> AttributeValue {
        try inDatabase { db in
            let state = try context.liveState(object, db)
            return state.attributes[try attributeSlot(attribute, of: schema.entities[state.entity])]
        }
    }

    /// A relationship's destinations: in order for an ordered to-many, by primary key for an
    /// unordered one, zero or one for a to-one. A destination may be an object that is no
    /// longer live (a No Action reference to a deleted object).
    public func related(_ object: ObjectID, _ relationship: String) throws -> [ObjectID] {
        try inDatabase { db in
            let slot = try relationshipSlot(relationship, of: object, destination: nil, db)
            return try context.destinations(object, slot, db)
        }
    }

    /// How many live objects of the entity and its sub-entities there are.
    public func count(_ entityName: String) throws -> Int {
        try fetch(entityName).count
    }

    /// The live objects of the entity and its sub-entities whose attributes equal `matching`,
    /// by primary key.
    public func fetch(_ entityName: String, matching: [String: AttributeValue] = [:]) throws -> [ObjectID] {
        let entity = try entityMapping(named: entityName)
        var conditions: [(slot: Int, value: AttributeValue)] = []
        for (name, value) in matching {
            let slot = try attributeSlot(name, of: entity)
            conditions.append((slot, try coerce(value, for: entity.attributes[slot], of: entity)))
        }
        return try inDatabase { db in
            try context.fetch(entity, where: conditions, db)
        }
    }

    // MARK: Queries of the saved state alone (the rows in the file, pending changes left pending)

    /// True when the object is saved in the file, whatever the pending changes say: what a
    /// second context on the same coordinator sees.
    public func savedExists(_ object: ObjectID) throws -> Bool {
        try readingSaved { context, db in try context.isLive(object, db) }
    }

    /// One attribute of a saved object, as saved.
    public func savedValue(_ attribute: String, of object: ObjectID) throws -> AttributeValue {
        try readingSaved { context, db in
            let state = try context.liveState(object, db)
            return state.attributes[try attributeSlot(attribute, of: schema.entities[state.entity])]
        }
    }

    /// A saved object's relationship, as saved (ordered like `related`).
    public func savedRelated(_ object: ObjectID, _ relationship: String) throws -> [ObjectID] {
        try readingSaved { context, db in
            let entity = schema.entities[try context.liveState(object, db).entity]
            guard let slot = entity.slotsByName[relationship], entity.relationship(slot) != nil else {
                throw SQLiteStoreError(.noSuchProperty, "'\(entity.name)' has no relationship '\(relationship)'")
            }
            return try context.destinations(object, slot, db)
        }
    }

    /// How many saved objects of the entity and its sub-entities the file holds.
    public func savedCount(_ entityName: String) throws -> Int {
        let entity = try entityMapping(named: entityName)
        return try readingSaved { context, db in try context.fetch(entity, where: [], db).count }
    }

    // MARK: Helpers

    /// Runs a change: the one place read-only is enforced, so no new way to change a store
    /// can forget it.
    func changing<T>(_ body: (Database) throws -> T) throws -> T {
        guard access != .readOnly else {
            guard queue != nil else { throw closedError }
            throw SQLiteStoreError(.invalidRequest, "the store at '\(path)' is open read-only; open it with access .readWrite to change it")
        }
        return try inDatabase(body)
    }

    private var closedError: SQLiteStoreError {
        SQLiteStoreError(.invalidRequest, "the store at '\(path)' is closed; open it again")
    }

    /// Runs `body` on the saved state alone: a fresh context, not the pending changes.
    func readingSaved<T>(_ body: (inout ObjectContext, Database) throws -> T) throws -> T {
        try inDatabase { db in
            var saved = ObjectContext(schema: schema, highestPrimaryKeys: context.highestPrimaryKeys)
            return try body(&saved, db)
        }
    }

    func inDatabase<T>(_ body: (Database) throws -> T) throws -> T {
        guard let queue else { throw closedError }
        snapshot?.restartBudget()
        do {
            return try queue.inDatabase(body)
        } catch let error as SaveFailedError {
            throw error
        } catch {
            throw snapshot?.describing(error) ?? SQLiteStoreError.describing(error, path: path)
        }
    }

    private static func translatingErrors<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SaveFailedError {
            throw error
        } catch {
            throw SQLiteStoreError.describing(error, path: path)
        }
    }

    /// The entity a request names.
    func entityMapping(named name: String) throws -> EntityMapping {
        guard let entity = schema.entity(named: name) else {
            throw SQLiteStoreError(.noSuchProperty, "the model has no entity '\(name)'")
        }
        return entity
    }

    func attributeSlot(_ name: String, of entity: EntityMapping) throws -> Int {
        guard case .attribute(let slot)? = entity.slotsByName[name] else {
            throw SQLiteStoreError(.noSuchProperty, "'\(entity.name)' has no attribute '\(name)'")
        }
        return slot
    }

    /// The relationship's slot, after checking that the object is live and the destination
    /// (when given) is an object of the destination entity or one of its sub-entities.
    private func relationshipSlot(_ name: String, of object: ObjectID, destination: ObjectID?,
                                  _ db: Database) throws -> PropertySlot {
        let entity = schema.entities[try context.liveState(object, db).entity]
        guard let slot = entity.slotsByName[name], let relationship = entity.relationship(slot) else {
            throw SQLiteStoreError(.noSuchProperty, "'\(entity.name)' has no relationship '\(name)'")
        }
        if let destination {
            let target = schema.entities[try context.liveState(destination, db).entity]
            guard schema.entities[relationship.destination].kinds.contains(target.index) else {
                throw SQLiteStoreError(.invalidRequest,
                                       "'\(entity.name).\(name)' points to '\(schema.entities[relationship.destination].name)', not '\(target.name)'")
            }
        }
        return slot
    }

    private func coerce(_ value: AttributeValue, for attribute: AttributeMapping, of entity: EntityMapping) throws -> AttributeValue {
        do {
            return try value.coerced(to: attribute.type)
        } catch {
            throw SQLiteStoreError(.invalidRequest, "'\(entity.name).\(attribute.name)': \(error.description)")
        }
    }
}

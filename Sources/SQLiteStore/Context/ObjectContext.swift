import Conformance
import GRDB
import OrderedCollections

/// One object as the context holds it: the values a query sees (saved values overlaid with
/// pending changes) and what the next save must do with it.
struct ObjectState: Sendable {
    var entity: Int
    var attributes: [AttributeValue]
    var toOnes: [ObjectID?]
    /// Nil until the relationship is first needed, then read from the file once; see
    /// `ObjectContext.members(of:_:_:)` for why that read is always up to date.
    var toManys: [ToManyState?]
    /// Not yet written to the file.
    var isInserted: Bool
    var isDeleted: Bool
    /// An attribute was set, or a relationship gained or lost a member, since the last save.
    var isChanged = false
    /// The attributes and to-ones as the file holds them (for an object read from it), so
    /// that a save rewrites only the columns that changed: a column momlint reads but does not
    /// set is never written back.
    var savedAttributes: [AttributeValue] = []
    var savedToOnes: [ObjectID?] = []
    /// The row's `Z_OPT` when it was read: a save with optimistic locking on finds a conflict
    /// when the row's version moved since (contract §4.10).
    var readVersion: Int64?

    /// Inserted and not deleted, or saved and not deleted.
    var isLive: Bool { !isDeleted }
}

/// A to-many's members as last saved and as they are now. Ordered sets: membership tests are
/// constant time (a to-many of 100,000 members is built by 100,000 links), and the order is
/// kept for ordered relationships.
struct ToManyState: Sendable {
    var saved: OrderedSet<ObjectID>
    var current: OrderedSet<ObjectID>
}

/// The pending state of an open store: a managed object context in miniature.
///
/// Objects are read from the file on first use ("faulted") and kept here with their pending
/// changes; a save writes what changed and empties the context, a reset just empties it. The
/// file is never written between saves.
///
/// A value type, so that a save can work on a copy (constraint merges change objects) and
/// adopt it only once the SQLite transaction has committed.
struct ObjectContext: Sendable {
    let schema: StoreSchema
    /// Every object read or inserted since the last save or reset.
    var objects: [ObjectID: ObjectState] = [:]
    /// Inserted objects in insertion order (deleted ones included; check their state).
    var insertionOrder: [ObjectID] = []
    /// Per table: the highest primary key handed out. Never lowered by a reset, so a name
    /// held for a discarded object cannot silently reach a new one while the store is open.
    var highestPrimaryKeys: [Int64]
    /// Tables with objects deleted as a set (`deleteAsSet`) since the last save or reset: their
    /// keys are in the connection's `temp.momlint_deleted`, not in `objects`. Empty means that
    /// table's content is left over and means nothing.
    var setDeletedTables: Set<Int> = []
    /// False to run every deletion object by object (tests compare the two paths).
    var allowsSetDeletion = true
    /// Transient values of saved objects kept across a save (the file does not hold them), by
    /// attribute slot; given back to an object when it is read again, dropped by a refresh of
    /// it and by a reset.
    var keptTransients: [ObjectID: [Int: AttributeValue]] = [:]

    /// Forgets every pending change (and every cached row): `reset()`.
    mutating func discardPendingChanges() {
        objects = [:]
        insertionOrder = []
        setDeletedTables = []
        keptTransients = [:]
    }

    var hasChanges: Bool {
        !setDeletedTables.isEmpty || objects.values.contains { $0.isInserted || $0.isDeleted || $0.isChanged }
    }

    // MARK: Reading objects

    /// The object's state, read from the file if the context does not hold it yet; nil when
    /// there is no such row (never saved, or deleted by an earlier save).
    mutating func state(_ id: ObjectID, _ db: Database) throws -> ObjectState? {
        if let state = objects[id] { return state }
        // An ID from a store opened with another model names no table here.
        guard schema.tables.indices.contains(id.table) else { return nil }
        let statement = try db.cachedStatement(sql: schema.tables[id.table].selectByKeySQL)
        guard let row = try Row.fetchOne(statement, arguments: [id.primaryKey]) else { return nil }
        var state = try decode(row, table: id.table)
        state.isDeleted = try isSetDeleted(id, db)
        restoreKeptTransients(id, &state)
        objects[id] = state
        return state
    }

    /// Gives an object read again after a save the transient values it had.
    func restoreKeptTransients(_ id: ObjectID, _ state: inout ObjectState) {
        guard let values = keptTransients[id] else { return }
        for (slot, value) in values {
            state.attributes[slot] = value
            state.savedAttributes[slot] = value
        }
    }

    /// The state of a live object, or `noSuchObject`.
    mutating func liveState(_ id: ObjectID, _ db: Database) throws -> ObjectState {
        guard let state = try state(id, db), state.isLive else {
            throw SQLiteStoreError(.noSuchObject, "object \(id) does not exist: it was deleted, discarded, or never inserted")
        }
        return state
    }

    mutating func isLive(_ id: ObjectID, _ db: Database) throws -> Bool {
        try state(id, db)?.isLive ?? false
    }

    /// An object's state from a row read with the table's `rowColumns`. The row may come from
    /// a file momlint did not create: a key or entity number it cannot mean is an
    /// `unreadableValue` error naming the table, row and column (`StoredInteger`), never a
    /// guess and never a crash.
    func decode(_ row: Row, table: Int) throws -> ObjectState {
        let mapping = schema.tables[table]
        let key = try Self.primaryKey(of: row, table: mapping)
        let entityNumber = try StoredInteger.readRequired(row[1], at: .row(key, of: mapping.name.name, column: "Z_ENT"),
                                                          meaning: "an entity number")
        guard entityNumber >= 1, entityNumber <= schema.entities.count,
              schema.entities[Int(entityNumber) - 1].tableIndex == table
        else {
            throw SQLiteStoreError(.incompatibleFile, "row \(key) of \(mapping.name.quoted) has Z_ENT \(entityNumber), which is not an entity of that table")
        }
        let entity = schema.entities[Int(entityNumber) - 1]
        let attributes = entity.attributes.map { attribute in
            attribute.column.map { StoredValue.attributeValue(row[3 + $0], as: attribute.type) } ?? attribute.defaultValue
        }
        let toOnes = try entity.toOnes.map { relationship throws -> ObjectID? in
            guard case .column(let column) = relationship.storage,
                  let destination = try StoredInteger.read(row[3 + column], at: .row(key, of: mapping.name.name, column: mapping.columns[column].name.name),
                                                           meaning: "a primary key")
            else { return nil }
            return ObjectID(table: schema.entities[relationship.destination].tableIndex, primaryKey: destination)
        }
        return ObjectState(entity: entity.index, attributes: attributes, toOnes: toOnes,
                           toManys: Array(repeating: nil, count: entity.toManys.count),
                           isInserted: false, isDeleted: false,
                           savedAttributes: attributes, savedToOnes: toOnes,
                           readVersion: try StoredInteger.read(row[2], at: .row(key, of: mapping.name.name, column: "Z_OPT"),
                                                               meaning: "a row version"))
    }

    /// The `Z_PK` of a row read with the table's `rowColumns`.
    static func primaryKey(of row: Row, table: TableMapping) throws(SQLiteStoreError) -> Int64 {
        try StoredInteger.readRequired(row[0], at: .row(nil, of: table.name.name, column: "Z_PK"), meaning: "a primary key")
    }

    /// Registers rows read in bulk (a to-many's members), keeping any state already held.
    mutating func register(_ row: Row, table: Int, _ db: Database) throws -> ObjectID {
        let id = ObjectID(table: table, primaryKey: try Self.primaryKey(of: row, table: schema.tables[table]))
        if objects[id] == nil {
            var state = try decode(row, table: table)
            state.isDeleted = try isSetDeleted(id, db)
            restoreKeptTransients(id, &state)
            objects[id] = state
        }
        return id
    }

    // MARK: Inserting and setting

    mutating func insert(entity: EntityMapping, values: [Int: AttributeValue]) -> ObjectID {
        let id = ObjectID(table: entity.tableIndex, primaryKey: highestPrimaryKeys[entity.tableIndex] + 1)
        var attributes = entity.attributes.map(\.defaultValue)
        for (slot, value) in values { attributes[slot] = value }
        adopt(id, entity: entity, attributes: attributes)
        return id
    }

    mutating func setAttribute(_ id: ObjectID, slot: Int, to value: AttributeValue) {
        objects[id]!.attributes[slot] = value
        objects[id]!.isChanged = true
    }
}

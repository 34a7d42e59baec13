import GRDB
import OrderedCollections

/// Relationship changes with inverse maintenance (contract §4.1).
///
/// Invariant that makes lazy loading sound: whenever an edge between objects X and Y changes,
/// both X's and Y's relationship values for that edge are held in the context (to-manys are
/// loaded before they are changed). So a to-many that is *not* held has no pending change, and
/// reading it from the file gives its current value.
extension ObjectContext {
    /// The current destinations of a relationship (zero or one for a to-one), loading a to-many
    /// from the file the first time it is needed.
    mutating func destinations(_ id: ObjectID, _ slot: PropertySlot, _ db: Database) throws -> [ObjectID] {
        switch slot {
        case .toOne(let index):
            return (try state(id, db)?.toOnes[index]).flatMap { $0.map { [$0] } } ?? []
        case .toMany(let index):
            return try members(of: id, index, db).elements
        case .attribute:
            return []
        }
    }

    /// A to-many's current members, loaded from the file on first use. Loading reads the
    /// members' whole rows and registers them, so that propagation over a large to-many costs
    /// one query rather than one per member.
    mutating func members(of id: ObjectID, _ index: Int, _ db: Database) throws -> OrderedSet<ObjectID> {
        guard let state = try state(id, db) else { return [] }
        if let loaded = state.toManys[index] { return loaded.current }
        let relationship = schema.entities[state.entity].toManys[index]
        let destinationTable = schema.entities[relationship.destination].tableIndex
        let table = schema.tables[destinationTable]
        var loaded: OrderedSet<ObjectID> = []
        switch relationship.storage {
        case .inverseColumn(let column, let orderColumn):
            var sql = "SELECT \(table.rowColumns) FROM \(table.name.quoted) WHERE \(table.columns[column].name.quoted) = ?"
            sql += orderColumn.map { " ORDER BY \(table.columns[$0].name.quoted), \"Z_PK\"" } ?? " ORDER BY \"Z_PK\""
            let rows = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: [id.primaryKey])
            while let row = try rows.next() { loaded.append(try register(row, table: destinationTable, db)) }
        case .joinTable(let joinIndex, let side):
            let join = schema.joinTables[joinIndex]
            let order = join.orderColumn(side).map { "j.\($0.quoted), " } ?? ""
            let sql = "SELECT \(table.qualifiedRowColumns) FROM \(join.name.quoted) AS j JOIN \(table.name.quoted) AS t "
                + "ON t.\"Z_PK\" = j.\(join.otherColumn(side).quoted) WHERE j.\(join.ownColumn(side).quoted) = ? ORDER BY \(order)t.\"Z_PK\""
            let rows = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: [id.primaryKey])
            while let row = try rows.next() { loaded.append(try register(row, table: destinationTable, db)) }
        case .column:
            preconditionFailure("a to-many is never stored in its own column")
        }
        objects[id]!.toManys[index] = ToManyState(saved: loaded, current: loaded)
        return loaded
    }

    /// Links `destination` into the relationship (replacing a to-one, appending to a to-many)
    /// and maintains the inverse, as Core Data does.
    mutating func link(_ id: ObjectID, _ slot: PropertySlot, to destination: ObjectID, _ db: Database) throws {
        let relationship = try relationshipMapping(id, slot, db)
        switch slot {
        case .toOne(let index):
            let previous = objects[id]!.toOnes[index]
            guard previous != destination else { return }
            if let previous { try detachInverse(relationship, of: id, from: previous, db) }
            setToOne(id, index, destination)
        case .toMany(let index):
            guard !(try members(of: id, index, db)).contains(destination) else { return }
            objects[id]!.toManys[index]!.current.append(destination)
            objects[id]!.isChanged = true
        case .attribute:
            return
        }
        try attachInverse(relationship, slot, of: id, to: destination, db)
    }

    /// Removes `destination` from the relationship (a to-one becomes nil) and from its inverse.
    /// Does nothing when the destination is not there.
    mutating func unlink(_ id: ObjectID, _ slot: PropertySlot, from destination: ObjectID, _ db: Database) throws {
        let relationship = try relationshipMapping(id, slot, db)
        guard try drop(destination, from: id, slot, db) else { return }
        try detachInverse(relationship, of: id, from: destination, db)
    }

    /// Empties a relationship of a deleted object without touching the other side (the caller
    /// has detached the inverses already).
    mutating func clear(_ id: ObjectID, _ slot: PropertySlot) {
        switch slot {
        case .toOne(let index): objects[id]!.toOnes[index] = nil
        case .toMany(let index): objects[id]!.toManys[index]!.current = []
        case .attribute: break
        }
    }

    /// `source` no longer relates to `destination` through `relationship`: take `source` out of
    /// the destination's inverse (a to-one inverse only if it still points at `source`).
    mutating func detachInverse(_ relationship: RelationshipMapping, of source: ObjectID, from destination: ObjectID,
                                _ db: Database) throws {
        guard let inverse = relationship.inverse, try state(destination, db) != nil else { return }
        try drop(source, from: destination, inverse, db)
    }

    /// Takes `member` out of one relationship of `owner`, without touching the inverse: a
    /// to-one becomes nil only if it points at `member`; a to-many keeps the order of the rest.
    /// Returns whether anything changed.
    @discardableResult
    private mutating func drop(_ member: ObjectID, from owner: ObjectID, _ slot: PropertySlot, _ db: Database) throws -> Bool {
        switch slot {
        case .toOne(let index):
            guard objects[owner]!.toOnes[index] == member else { return false }
            setToOne(owner, index, nil)
        case .toMany(let index):
            guard let position = try members(of: owner, index, db).firstIndex(of: member) else { return false }
            objects[owner]!.toManys[index]!.current.remove(at: position)
            objects[owner]!.isChanged = true
        case .attribute:
            return false
        }
        return true
    }

    /// `source` now relates to `destination`: add `source` to the destination's inverse. A
    /// to-one inverse that pointed elsewhere is taken over, and the object it pointed at loses
    /// `destination` from its own relationship (e.g. an employee moving departments).
    private mutating func attachInverse(_ relationship: RelationshipMapping, _ slot: PropertySlot, of source: ObjectID,
                                        to destination: ObjectID, _ db: Database) throws {
        guard let inverse = relationship.inverse, try state(destination, db) != nil else { return }
        switch inverse {
        case .toOne(let index):
            let previous = objects[destination]!.toOnes[index]
            guard previous != source else { return }
            if let previous, try state(previous, db) != nil {
                try drop(destination, from: previous, slot, db)
            }
            setToOne(destination, index, source)
        case .toMany(let index):
            if !(try members(of: destination, index, db)).contains(source) {
                objects[destination]!.toManys[index]!.current.append(source)
                objects[destination]!.isChanged = true
            }
        case .attribute:
            break
        }
    }

    private mutating func setToOne(_ id: ObjectID, _ index: Int, _ value: ObjectID?) {
        objects[id]!.toOnes[index] = value
        objects[id]!.isChanged = true
    }

    private mutating func relationshipMapping(_ id: ObjectID, _ slot: PropertySlot, _ db: Database) throws -> RelationshipMapping {
        guard let state = try state(id, db), let mapping = schema.entities[state.entity].relationship(slot) else {
            preconditionFailure("callers resolve the object and the slot first")
        }
        return mapping
    }
}

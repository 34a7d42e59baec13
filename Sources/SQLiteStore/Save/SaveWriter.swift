import GRDB

/// Writes a validated context to the file, inside the caller's transaction.
///
/// Order matters for the unique indexes, which SQLite checks statement by statement: rows are
/// deleted first (an overwrite merge replaces a stored object by a new one with the same key),
/// then updated (a changed object may free a key a new one takes), then inserted; join rows
/// and `Z_FOK_` positions come last, once every row they order exists.
struct SaveWriter {
    let context: ObjectContext
    let db: Database
    /// UPDATE statements by the columns they set, for this save.
    private let updates = StatementCache(capacity: 32)

    private var schema: StoreSchema { context.schema }

    func write() throws {
        for table in context.setDeletedTables.sorted() { try deleteSetRows(of: table) }
        if !context.setDeletedTables.isEmpty { try db.execute(sql: "DELETE FROM \(ObjectContext.deletedKeys)") }
        let ids = context.objects.keys.sorted()
        for id in ids {
            let state = context.objects[id]!
            if state.isDeleted && !state.isInserted { try deleteRow(id, state) }
        }
        for id in ids {
            let state = context.objects[id]!
            if state.isLive && !state.isInserted && state.isChanged { try updateRow(id, state) }
        }
        for id in context.insertionOrder {
            let state = context.objects[id]!
            if state.isLive { try insertRow(id, state) }
        }
        // Two passes: positions are written once every pair they order has its row.
        for pass in [ToManyPass.pairs, .positions] {
            for id in ids {
                let state = context.objects[id]!
                if state.isLive { try writeToManys(id, state, pass) }
            }
        }
        try StoreMetadata.recordHighestPrimaryKeys(context.highestPrimaryKeys, schema, in: db)
    }

    private func deleteRow(_ id: ObjectID, _ state: ObjectState) throws {
        let table = schema.tables[id.table]
        try db.cachedStatement(sql: "DELETE FROM \(table.name.quoted) WHERE \"Z_PK\" = ?").execute(arguments: [id.primaryKey])
        // Join rows naming the object go with it, whatever the other side's rule: a join row
        // cannot dangle meaningfully, unlike a No Action foreign key (contract §4.4).
        for join in schema.joinTables {
            if join.ownerTable == id.table {
                try db.cachedStatement(sql: "DELETE FROM \(join.name.quoted) WHERE \(join.ownerColumn.quoted) = ?")
                    .execute(arguments: [id.primaryKey])
            }
            if join.memberTable == id.table {
                try db.cachedStatement(sql: "DELETE FROM \(join.name.quoted) WHERE \(join.memberColumn.quoted) = ?")
                    .execute(arguments: [id.primaryKey])
            }
        }
    }

    /// The rows of one table deleted as a set (`ObjectContext.deleteAsSet`), and their join
    /// rows, each by one statement over the keys in `temp.momlint_deleted`.
    ///
    /// When the set holds most of the table, the rows are deleted in one pass over the table
    /// that looks each key up in the set: SQLite answers `Z_PK IN (SELECT key - offset …)` by
    /// first copying the set's keys into an index of their own (docs/benchmarks.md, "The
    /// cascade benchmarks"), which the pass saves only when the table is not much larger than
    /// the set. The set is counted, and the table only up to twice that.
    private func deleteSetRows(of table: Int) throws {
        let offset = ObjectContext.keyOffset(table)
        let largest = ObjectContext.largestSetKey
        let range = "key BETWEEN \(offset) AND \(offset + largest)"
        let keys = "(SELECT key - \(offset) FROM \(ObjectContext.deletedKeys) WHERE \(range))"
        let name = schema.tables[table].name.quoted
        let setSize = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(ObjectContext.deletedKeys) WHERE \(range)") ?? 0
        guard setSize > 0 else { return }
        let rowsCounted = try Int.fetchOne(db, sql: "SELECT count(*) FROM (SELECT 1 FROM \(name) LIMIT \(2 * setSize))") ?? 0
        if rowsCounted < 2 * setSize {
            // A key outside 0…largest could meet another table's keys once offset.
            try db.execute(sql: "DELETE FROM \(name) WHERE \"Z_PK\" BETWEEN 0 AND \(largest) AND \"Z_PK\" + \(offset) IN \(ObjectContext.deletedKeys)")
        } else {
            try db.execute(sql: "DELETE FROM \(name) WHERE \"Z_PK\" IN \(keys)")
        }
        for join in schema.joinTables {
            if join.ownerTable == table { try db.execute(sql: "DELETE FROM \(join.name.quoted) WHERE \(join.ownerColumn.quoted) IN \(keys)") }
            if join.memberTable == table { try db.execute(sql: "DELETE FROM \(join.name.quoted) WHERE \(join.memberColumn.quoted) IN \(keys)") }
        }
    }

    /// The values of the entity's written columns (`EntityMapping.writtenColumns`), then of
    /// its to-ones' entity-number columns.
    private func columnValues(_ state: ObjectState) throws -> [DatabaseValue] {
        let entity = schema.entities[state.entity]
        let values: [DatabaseValue] = entity.writtenColumns.map { written in
            switch written.slot {
            case .attribute(let slot): StoredValue.databaseValue(state.attributes[slot])
            case .toOne(let slot): state.toOnes[slot]?.primaryKey.databaseValue ?? .null
            case .toMany: .null
            }
        }
        return try values + entity.entityNumberColumns.map { try entityNumber(of: state.toOnes[$0.toOne], entity.toOnes[$0.toOne]) }
    }

    /// The entity number of a to-one's destination, for its `Z<n>_<NAME>` column: from the
    /// schema when only one entity can be there (the destination's one concrete kind), from the
    /// context when it holds the object, else from the file.
    private func entityNumber(of destination: ObjectID?, _ relationship: RelationshipMapping) throws -> DatabaseValue {
        guard let destination else { return .null }
        let concrete = schema.entities[relationship.destination].kinds.filter { !schema.entities[$0].isAbstract }
        if concrete.count == 1 { return (concrete[0] + 1).databaseValue }
        if let held = context.objects[destination] { return (held.entity + 1).databaseValue }
        let table = schema.tables[destination.table]
        let stored = try DatabaseValue.fetchOne(db.cachedStatement(sql: "SELECT \"Z_ENT\" FROM \(table.name.quoted) WHERE \"Z_PK\" = ?"),
                                                arguments: [destination.primaryKey]) ?? .null
        return try StoredInteger.read(stored, at: .row(destination.primaryKey, of: table.name.name, column: "Z_ENT"),
                                      meaning: "an entity number")?.databaseValue ?? .null
    }

    private func insertRow(_ id: ObjectID, _ state: ObjectState) throws {
        let arguments = [id.primaryKey.databaseValue, (state.entity + 1).databaseValue, 1.databaseValue] + (try columnValues(state))
        try db.cachedStatement(sql: schema.entities[state.entity].insertSQL).execute(arguments: StatementArguments(arguments))
    }

    /// Writes the columns whose value changed since the object was read, and bumps `Z_OPT`,
    /// the optimistic-locking version. Columns that did not change are left as the file holds
    /// them, so a value momlint does not set (or another writer's column) is never rewritten.
    private func updateRow(_ id: ObjectID, _ state: ObjectState) throws {
        let entity = schema.entities[state.entity]
        let table = schema.tables[entity.tableIndex]
        var assignments = ["\"Z_OPT\" = \"Z_OPT\" + 1"]
        var arguments: [DatabaseValue] = []
        for written in entity.writtenColumns {
            let value: DatabaseValue
            switch written.slot {
            case .attribute(let slot):
                guard state.attributes[slot] != state.savedAttributes[slot] else { continue }
                value = StoredValue.databaseValue(state.attributes[slot])
            case .toOne(let slot):
                guard state.toOnes[slot] != state.savedToOnes[slot] else { continue }
                value = state.toOnes[slot]?.primaryKey.databaseValue ?? .null
            case .toMany:
                continue
            }
            assignments.append("\(table.columns[written.column].name.quoted) = ?")
            arguments.append(value)
        }
        for (slot, column) in entity.entityNumberColumns where state.toOnes[slot] != state.savedToOnes[slot] {
            assignments.append("\(table.columns[column].name.quoted) = ?")
            arguments.append(try entityNumber(of: state.toOnes[slot], entity.toOnes[slot]))
        }
        // The SQL text depends only on which columns changed: the common cases (one attribute
        // set) reuse a statement, while a table of many columns, whose subsets are countless,
        // cannot fill the memory (GRDB's statement cache keeps every text for the connection's life).
        let sql = "UPDATE \(table.name.quoted) SET \(assignments.joined(separator: ", ")) WHERE \"Z_PK\" = ?"
        try updates.statement(sql, db).execute(arguments: StatementArguments(arguments + [id.primaryKey.databaseValue]))
    }

    private enum ToManyPass {
        case pairs
        case positions
    }

    /// Join rows, or positions, of the to-manys that changed. A member that is not live (a No
    /// Action reference to a deleted object) is never written.
    private func writeToManys(_ id: ObjectID, _ state: ObjectState, _ pass: ToManyPass) throws {
        let entity = schema.entities[state.entity]
        for (index, relationship) in entity.toManys.enumerated() {
            guard let members = state.toManys[index], members.current != members.saved else { continue }
            let live = try members.current.filter { try context.objects[$0]?.isLive ?? !context.isSetDeleted($0, db) }
            switch relationship.storage {
            case .inverseColumn(_, let orderColumn?) where pass == .positions:
                let table = schema.tables[schema.entities[relationship.destination].tableIndex]
                let statement = try db.cachedStatement(
                    sql: "UPDATE \(table.name.quoted) SET \(table.columns[orderColumn].name.quoted) = ? WHERE \"Z_PK\" = ?")
                for (position, member) in live.enumerated() {
                    try statement.execute(arguments: [position + 1, member.primaryKey])
                }
            case .inverseColumn:
                // The members' own foreign keys were written with their rows.
                break
            case .joinTable(let joinIndex, let side):
                let join = schema.joinTables[joinIndex]
                let own = join.ownColumn(side), other = join.otherColumn(side)
                // A pair is written from the side that named the table; the other side of a
                // many-to-many always changes with it (inverse maintenance).
                if side == .owner, pass == .pairs {
                    let removed = Set(members.saved).subtracting(members.current)
                    let added = Set(live).subtracting(members.saved)
                    let delete = try db.cachedStatement(sql: "DELETE FROM \(join.name.quoted) WHERE \(own.quoted) = ? AND \(other.quoted) = ?")
                    for member in removed { try delete.execute(arguments: [id.primaryKey, member.primaryKey]) }
                    let insert = try db.cachedStatement(sql: "INSERT INTO \(join.name.quoted) (\(own.quoted), \(other.quoted)) VALUES (?, ?)")
                    for member in added.sorted() { try insert.execute(arguments: [id.primaryKey, member.primaryKey]) }
                }
                if let order = join.orderColumn(side), pass == .positions {
                    let statement = try db.cachedStatement(
                        sql: "UPDATE \(join.name.quoted) SET \(order.quoted) = ? WHERE \(own.quoted) = ? AND \(other.quoted) = ?")
                    for (position, member) in live.enumerated() {
                        try statement.execute(arguments: [position + 1, id.primaryKey, member.primaryKey])
                    }
                }
            case .column:
                break
            }
        }
    }
}

/// Prepared statements by SQL text, at most `capacity` of them: the least recently used one
/// goes when a new one comes.
final class StatementCache {
    let capacity: Int
    private var statements: [String: Statement] = [:]
    /// SQL texts, least recently used first.
    private var order: [String] = []

    init(capacity: Int) {
        self.capacity = capacity
    }

    var count: Int { statements.count }

    func statement(_ sql: String, _ db: Database) throws -> Statement {
        if let statement = statements[sql] {
            if order.last != sql, let position = order.firstIndex(of: sql) {
                order.remove(at: position)
                order.append(sql)
            }
            return statement
        }
        let statement = try db.makeStatement(sql: sql)
        if statements.count >= capacity, !order.isEmpty {
            statements[order.removeFirst()] = nil
        }
        statements[sql] = statement
        order.append(sql)
        return statement
    }
}

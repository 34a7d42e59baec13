import GRDB

/// Delete propagation as set operations in SQL (docs/sqlite-store.md, "Deleting").
///
/// A cascade over saved rows is computed by one recursive query over the key columns, into a
/// temporary table of keys; no object on the way is loaded. Only the objects on the edge of the
/// deleted set — live objects a deleted one nullifies itself out of — are loaded and changed one
/// by one, by the same code the general path uses (`detachInverse`), so ordered relationships,
/// minimum counts and the inverses they touch behave as before. At the next save the rows go
/// by one `DELETE` per table over the keys (`SaveWriter.deleteSetRows`).
///
/// The keys are kept in SQLite rather than in memory, in `temp.momlint_deleted`, which belongs
/// to the connection: never to the file. A key there is `table << 40 | Z_PK`, so that one rowid
/// table serves every table and a table's keys are one range.
extension ObjectContext {
    /// Bits of a key given to `Z_PK`; the table's index goes above them.
    static let keyBits: Int64 = 40
    static let largestSetKey: Int64 = (1 << keyBits) - 1

    /// Where a table's keys start in `temp.momlint_deleted`.
    static func keyOffset(_ table: Int) -> Int64 { Int64(table) << keyBits }

    /// The connection's tables of keys: every key deleted as part of a set since the last
    /// save or reset, and the keys one deletion reaches (a scratch table).
    static let deletedKeys = "temp.momlint_deleted"
    static let reachedKeys = "temp.momlint_reached"

    /// True when `id` was deleted by a set-based cascade since the last save or reset.
    func isSetDeleted(_ id: ObjectID, _ db: Database) throws -> Bool {
        guard setDeletedTables.contains(id.table), (0...Self.largestSetKey).contains(id.primaryKey) else { return false }
        let statement = try db.cachedStatement(sql: "SELECT 1 FROM temp.momlint_deleted WHERE key = ?")
        return try Bool.fetchOne(statement, arguments: [Self.keyOffset(id.table) + id.primaryKey]) != nil
    }

    /// Deletes `root` and everything its Cascade rules reach as sets, when the rules allow;
    /// returns false, having changed nothing, when the general path must run instead.
    ///
    /// The rules allow it when no entity the cascade can reach has a Deny rule (Deny is judged
    /// per object at the save), and when no object the cascade reaches has pending changes: the
    /// query reads the file, which is the truth only for objects the context holds unchanged.
    mutating func deleteAsSet(_ root: ObjectID, _ db: Database) throws -> Bool {
        guard let state = objects[root], !state.isInserted, !state.isChanged, !state.isDeleted,
              let plan = SetDeletionPlan(root: state.entity, schema: schema),
              !plan.branches.isEmpty || !plan.leafBranches.isEmpty,
              plan.branches.count <= 1 || Self.sqliteVersionNumber(db) >= 3_034_000,
              try keysFit(plan.touchedTables, db)
        else { return false }

        try Self.prepareScratchTables(db)
        // The reached set goes straight into the deleted set when that holds nothing of this
        // context; otherwise into a scratch table first, so that it can be abandoned alone.
        let direct = setDeletedTables.isEmpty
        let reached = direct ? Self.deletedKeys : Self.reachedKeys
        try db.execute(sql: "DELETE FROM \(reached)")
        let seed = Self.keyOffset(root.table) + root.primaryKey
        try db.cachedStatement(sql: plan.reachSQL(into: reached)).execute(arguments: [seed])

        // An object the context holds with pending changes may differ from its row: leave the
        // whole deletion to the general path, which reads the context.
        let contains = try db.cachedStatement(sql: "SELECT 1 FROM \(reached) WHERE key = ?")
        for (id, held) in objects where held.isInserted || held.isChanged || held.isDeleted {
            guard (0...Self.largestSetKey).contains(id.primaryKey) else { continue }
            if try Bool.fetchOne(contains, arguments: [Self.keyOffset(id.table) + id.primaryKey]) != nil {
                try db.execute(sql: "DELETE FROM \(reached)")
                return false
            }
        }
        if !direct {
            try db.execute(sql: "INSERT OR IGNORE INTO temp.momlint_deleted (key) SELECT key FROM temp.momlint_reached")
        }
        setDeletedTables.formUnion(plan.tables)

        // Objects held unchanged are marked here; the rest are deleted by their keys alone.
        for (id, held) in objects where held.isLive && (0...Self.largestSetKey).contains(id.primaryKey) {
            guard try Bool.fetchOne(contains, arguments: [Self.keyOffset(id.table) + id.primaryKey]) != nil else { continue }
            objects[id]!.isDeleted = true
            for (slot, relationship) in schema.entities[held.entity].relationshipSlots {
                switch relationship.relationship.deletionRule {
                case .noAction, .deny: continue
                case .cascade, .nullify, .unknown: break
                }
                if case .toMany(let index) = slot, held.toManys[index] == nil { continue }
                clear(id, slot)
            }
        }

        // The edge: a live object outside the set that a deleted one points at through a
        // Nullify relationship loses the deleted one from the inverse, as in the general path.
        for edge in plan.edges {
            var pairs: [(source: Int64, destination: Int64)] = []
            let rows = try Row.fetchCursor(db.cachedStatement(sql: edge.sql(reached: reached)))
            let sourceTable = schema.tables[edge.sourceTable].name.name
            while let row = try rows.next() {
                let source = try StoredInteger.readRequired(row[0], at: .row(nil, of: sourceTable, column: "Z_PK"), meaning: "a primary key")
                let destination = try StoredInteger.readRequired(row[1], at: edge.destinationKeyLocation(source: source),
                                                                 meaning: "a primary key")
                pairs.append((source, destination))
            }
            for pair in pairs {
                try detachInverse(edge.relationship, of: ObjectID(table: edge.sourceTable, primaryKey: pair.source),
                                  from: ObjectID(table: edge.destinationTable, primaryKey: pair.destination), db)
            }
        }
        return true
    }

    /// Whether every key of these tables fits below `keyBits` bits, so that keys of different
    /// tables cannot meet in `temp.momlint_deleted`.
    private func keysFit(_ tables: Set<Int>, _ db: Database) throws -> Bool {
        for table in tables {
            let name = schema.tables[table].name.quoted
            // The largest and smallest keys; no rows for an empty table (where max() is NULL).
            let sql = """
                SELECT * FROM (SELECT "Z_PK" FROM \(name) ORDER BY "Z_PK" DESC LIMIT 1)
                UNION ALL SELECT * FROM (SELECT "Z_PK" FROM \(name) ORDER BY "Z_PK" LIMIT 1)
                """
            let keys = try StoredInteger.fetchPrimaryKeys(db, sql: sql, table: schema.tables[table].name.name)
            if keys.contains(where: { $0 > Self.largestSetKey || $0 < 0 }) { return false }
        }
        return true
    }

    /// The connection's own tables of keys. `temp_store = MEMORY` keeps them off the disk; it
    /// is set before the first temporary table, since changing it drops existing ones, and
    /// not inside a transaction (a deletion during a save's merge), where SQLite refuses it.
    private static func prepareScratchTables(_ db: Database) throws {
        guard try Bool.fetchOne(db, sql: "SELECT 1 FROM temp.sqlite_master WHERE name = 'momlint_deleted'") == nil else { return }
        if !db.isInsideTransaction { try db.execute(sql: "PRAGMA temp_store = MEMORY") }
        try db.execute(sql: """
            CREATE TEMP TABLE momlint_deleted (key INTEGER PRIMARY KEY);
            CREATE TEMP TABLE momlint_reached (key INTEGER PRIMARY KEY);
            """)
    }

    /// Several recursive SELECTs in one common table expression need SQLite 3.34.
    private static func sqliteVersionNumber(_ db: Database) -> Int {
        let version = (try? String.fetchOne(db, sql: "SELECT sqlite_version()")) ?? nil
        let parts = (version ?? "").split(separator: ".").compactMap { Int($0) }
        guard parts.count >= 2 else { return 0 }
        return parts[0] * 1_000_000 + parts[1] * 1_000 + (parts.count > 2 ? parts[2] : 0)
    }
}

private extension EntityMapping {
    func hasSlot(_ slot: PropertySlot) -> Bool {
        switch slot {
        case .attribute(let index): attributes.indices.contains(index)
        case .toOne(let index): toOnes.indices.contains(index)
        case .toMany(let index): toManys.indices.contains(index)
        }
    }
}

/// What a set-based deletion from one entity runs: the recursive query over the Cascade
/// relationships of every entity the cascade can reach, and one query per Nullify relationship
/// with an inverse, finding the objects on the edge of the set.
struct SetDeletionPlan {
    /// One Nullify relationship of the deleted entities, and how to find its destinations
    /// outside the deleted set.
    struct Edge {
        var relationship: RelationshipMapping
        var sourceTable: Int
        var destinationTable: Int
        /// SELECT (source Z_PK, destination Z_PK) over the keys in `temp.momlint_deleted`,
        /// and over those in `temp.momlint_reached`.
        var overDeleted: String
        var overReached: String
        /// Where the destination key comes from, for a message about a value it cannot mean:
        /// the source row's to-one column, the destination's `Z_PK`, or a join-table column.
        var destinationKeyTable: String
        var destinationKeyColumn: String
        var destinationKeyIsInSourceRow: Bool

        func sql(reached: String) -> String { reached == ObjectContext.deletedKeys ? overDeleted : overReached }

        /// Where the destination key of the pair from source row `source` was read.
        func destinationKeyLocation(source: Int64) -> StoredInteger.Location {
            destinationKeyIsInSourceRow
                ? .row(source, of: destinationKeyTable, column: destinationKeyColumn)
                : .row(nil, of: destinationKeyTable, column: destinationKeyColumn)
        }
    }

    /// The tables of every entity the cascade can reach.
    var tables: Set<Int> = []
    /// Those, and the tables of the objects on the edge.
    var touchedTables: Set<Int> = []
    /// One recursive SELECT per Cascade relationship into an entity that cascades further,
    /// each giving keys reached from a key.
    var branches: [String] = []
    /// One SELECT per Cascade relationship into an entity that cascades no further (a leaf,
    /// like the children of a fan-out): run once over everything reached, not once per key,
    /// since nothing is reached through its results.
    var leafBranches: [String] = []
    var edges: [Edge] = []

    /// Nil when an entity the cascade can reach has a Deny rule.
    init?(root: Int, schema: StoreSchema) {
        var reachable: Set<Int> = [root]
        var pending = [root]
        while let entity = pending.popLast() {
            for (_, relationship) in schema.entities[entity].relationshipSlots {
                switch relationship.relationship.deletionRule {
                case .deny: return nil
                case .cascade:
                    for kind in schema.entities[relationship.destination].kinds where reachable.insert(kind).inserted {
                        pending.append(kind)
                    }
                case .noAction, .nullify, .unknown: break
                }
            }
        }
        tables = Set(reachable.map { schema.entities[$0].tableIndex })

        // A relationship inherited by sub-entities is one branch, filtered to the kinds reached.
        var groups: [RelationshipKey: [Int]] = [:]
        var order: [RelationshipKey] = []
        for entity in reachable.sorted() {
            for (slot, _) in schema.entities[entity].relationshipSlots {
                let key = RelationshipKey(declaringEntity: Self.declaringEntity(of: slot, in: entity, schema), slot: slot)
                if groups[key] == nil { order.append(key) }
                groups[key, default: []].append(entity)
            }
        }
        for key in order {
            let kinds = groups[key]!
            let source = schema.entities[key.declaringEntity]
            let relationship = source.relationship(key.slot)!
            let table = source.tableIndex
            let tableEntities = schema.entities.filter { $0.tableIndex == table }.map(\.index)
            let kindFilter = Set(tableEntities).isSubset(of: kinds)
                ? "" : " AND s.\"Z_ENT\" IN (\(kinds.map { String($0 + 1) }.joined(separator: ", ")))"
            switch relationship.relationship.deletionRule {
            case .cascade:
                let cascadesFurther = schema.entities[relationship.destination].kinds.contains { kind in
                    schema.entities[kind].relationshipSlots.contains { $0.mapping.relationship.deletionRule == .cascade }
                }
                if cascadesFurther {
                    branches.append(Self.branch(relationship, from: table, kindFilter: kindFilter, schema))
                } else {
                    leafBranches.append(Self.branch(relationship, from: table, kindFilter: kindFilter, schema))
                }
            case .nullify, .unknown:
                // Without an inverse, nullifying touches only the deleted object itself.
                guard relationship.inverse != nil else { continue }
                let destinationTable = schema.entities[relationship.destination].tableIndex
                let keyColumn: (table: String, column: String, inSourceRow: Bool) = switch relationship.storage {
                case .column(let column): (schema.tables[table].name.name, schema.tables[table].columns[column].name.name, true)
                case .inverseColumn: (schema.tables[destinationTable].name.name, "Z_PK", false)
                case .joinTable(let index, let side): (schema.joinTables[index].name.name, schema.joinTables[index].otherColumn(side).name, false)
                }
                edges.append(Edge(
                    relationship: relationship, sourceTable: table, destinationTable: destinationTable,
                    overDeleted: Self.edgeSQL(relationship, from: table, over: ObjectContext.deletedKeys, kindFilter: kindFilter, schema),
                    overReached: Self.edgeSQL(relationship, from: table, over: ObjectContext.reachedKeys, kindFilter: kindFilter, schema),
                    destinationKeyTable: keyColumn.table, destinationKeyColumn: keyColumn.column,
                    destinationKeyIsInSourceRow: keyColumn.inSourceRow))
            case .noAction, .deny:
                continue
            }
        }
        touchedTables = tables.union(edges.map(\.destinationTable))
    }

    /// `INSERT OR IGNORE INTO <table> WITH RECURSIVE reached(key) AS (SELECT ? UNION <branch> …)
    /// SELECT key FROM reached UNION ALL <leaf branch> …`. UNION in the recursion: a key is
    /// queued once, so cycles end. A leaf reached twice (a many-to-many) is inserted once.
    func reachSQL(into table: String) -> String {
        "INSERT OR IGNORE INTO \(table) (key) WITH RECURSIVE reached(key) AS (SELECT ?"
            + branches.map { " UNION " + $0 }.joined()
            + ") SELECT key FROM reached"
            + leafBranches.map { " UNION ALL " + $0 }.joined()
    }

    private struct RelationshipKey: Hashable {
        var declaringEntity: Int
        var slot: PropertySlot
    }

    /// The highest ancestor of `entity` that has the same relationship in `slot`: sub-entities
    /// share their ancestors' slots, while siblings may use one slot for different relationships.
    private static func declaringEntity(of slot: PropertySlot, in entity: Int, _ schema: StoreSchema) -> Int {
        let relationship = schema.entities[entity].relationship(slot)!
        var declaring = entity
        while let parent = schema.entities[declaring].parentIndex, schema.entities[parent].hasSlot(slot),
              let inherited = schema.entities[parent].relationship(slot),
              inherited.name == relationship.name, inherited.destination == relationship.destination {
            declaring = parent
        }
        return declaring
    }

    /// `FROM reached JOIN <table> AS s …`: the source row of each reached key of `table`, which
    /// also skips keys whose row does not exist (a reference to an object deleted earlier).
    private static func sourceRows(_ table: Int, over keys: String, kindFilter: String, _ schema: StoreSchema) -> (from: String, where: String) {
        let offset = ObjectContext.keyOffset(table)
        return ("FROM \(keys) AS d JOIN \(schema.tables[table].name.quoted) AS s ON s.\"Z_PK\" = d.key - \(offset)",
                "WHERE d.key BETWEEN \(offset) AND \(offset + ObjectContext.largestSetKey)\(kindFilter)")
    }

    /// The destination keys of one Cascade relationship, as a recursive SELECT over `reached`.
    private static func branch(_ relationship: RelationshipMapping, from table: Int, kindFilter: String, _ schema: StoreSchema) -> String {
        let source = sourceRows(table, over: "reached", kindFilter: kindFilter, schema)
        let destinationTable = schema.entities[relationship.destination].tableIndex
        let offset = ObjectContext.keyOffset(destinationTable)
        let largest = ObjectContext.largestSetKey
        switch relationship.storage {
        case .column(let column):
            let name = schema.tables[table].columns[column].name.quoted
            return "SELECT s.\(name) + \(offset) \(source.from) \(source.where) AND s.\(name) BETWEEN 0 AND \(largest)"
        case .inverseColumn(let column, _):
            let destination = schema.tables[destinationTable]
            return "SELECT u.\"Z_PK\" + \(offset) \(source.from) JOIN \(destination.name.quoted) AS u "
                + "ON u.\(destination.columns[column].name.quoted) = s.\"Z_PK\" \(source.where)"
        case .joinTable(let index, let side):
            let join = schema.joinTables[index]
            let other = "j.\(join.otherColumn(side).quoted)"
            return "SELECT \(other) + \(offset) \(source.from) JOIN \(join.name.quoted) AS j "
                + "ON j.\(join.ownColumn(side).quoted) = s.\"Z_PK\" \(source.where) AND \(other) BETWEEN 0 AND \(largest)"
        }
    }

    /// (source, destination) pairs of one Nullify relationship whose destination is not in the
    /// deleted set.
    private static func edgeSQL(_ relationship: RelationshipMapping, from table: Int, over keys: String, kindFilter: String,
                                _ schema: StoreSchema) -> String {
        let source = sourceRows(table, over: keys, kindFilter: kindFilter, schema)
        let destinationTable = schema.entities[relationship.destination].tableIndex
        let offset = ObjectContext.keyOffset(destinationTable)
        let largest = ObjectContext.largestSetKey
        let outside: (String) -> String = { "\($0) BETWEEN 0 AND \(largest) AND \($0) + \(offset) NOT IN temp.momlint_deleted" }
        switch relationship.storage {
        case .column(let column):
            let name = "s.\(schema.tables[table].columns[column].name.quoted)"
            return "SELECT s.\"Z_PK\", \(name) \(source.from) \(source.where) AND \(outside(name))"
        case .inverseColumn(let column, _):
            let destination = schema.tables[destinationTable]
            return "SELECT s.\"Z_PK\", u.\"Z_PK\" \(source.from) JOIN \(destination.name.quoted) AS u "
                + "ON u.\(destination.columns[column].name.quoted) = s.\"Z_PK\" \(source.where) AND \(outside("u.\"Z_PK\""))"
        case .joinTable(let index, let side):
            let join = schema.joinTables[index]
            let other = "j.\(join.otherColumn(side).quoted)"
            return "SELECT s.\"Z_PK\", \(other) \(source.from) JOIN \(join.name.quoted) AS j "
                + "ON j.\(join.ownColumn(side).quoted) = s.\"Z_PK\" \(source.where) AND \(outside(other))"
        }
    }
}

import Foundation
import GRDB

/// Running a `MigrationPlan`: its statements, executed against the store's database in order —
/// link sets read, tables rebuilt or changed in place, old tables dropped, relationships' links
/// written to their new storage, indexes replaced and the bookkeeping rewritten.
extension MigrationPlan {
    /// Runs every statement; the caller holds the transaction. Throws `StoreMigrationError`
    /// (134110) when a required attribute is left without a value.
    func run(_ db: Database) throws {
        let linkTables = linkSets.indices.map { SQLIdentifier("momlint_migration_links_\($0)") }
        for (table, select) in zip(linkTables, linkSets) {
            try db.execute(sql: "CREATE TEMP TABLE \(table.quoted) (s INTEGER, d INTEGER, fo INTEGER, io INTEGER)")
            try db.execute(sql: "INSERT INTO \(table.quoted) (s, d, fo, io) \(select)")
            try db.execute(sql: "CREATE INDEX \(SQLIdentifier(table.name + "_s").quoted) ON \(table.quoted) (s)")
        }
        let building = destination.tables.indices.map { SQLIdentifier("Z_MOMLINT_MIGRATING_\($0)") }
        for plan in tablePlans where !plan.inPlace {
            try rebuild(plan, into: building[plan.table], db)
        }
        for plan in tablePlans where plan.inPlace {
            try changeInPlace(plan, db)
        }
        let keptTables = Set(tablePlans.filter(\.inPlace).compactMap(\.sourceTable))
        for (index, table) in source.tables.enumerated() where !keptTables.contains(index) {
            try db.execute(sql: "DROP TABLE IF EXISTS \(table.name.quoted)")
        }
        for (index, join) in source.joinTables.enumerated() where !keptJoinTables.contains(index) {
            try db.execute(sql: "DROP TABLE IF EXISTS \(join.name.quoted)")
        }
        for plan in tablePlans where !plan.inPlace {
            try db.execute(sql: "ALTER TABLE \(building[plan.table].quoted) RENAME TO \(destination.tables[plan.table].name.quoted)")
        }
        try checkRequiredValues(db)
        for item in work {
            try perform(item, linkTables: linkTables, db)
        }
        try replaceIndexes(db)
        try writeBookkeeping(db)
        for table in linkTables {
            try db.execute(sql: "DROP TABLE \(table.quoted)")
        }
    }

    private func rebuild(_ plan: TablePlan, into name: SQLIdentifier, _ db: Database) throws {
        let table = destination.tables[plan.table]
        try db.execute(sql: StoreSchema.createTableSQL(table, named: name))
        guard let sourceTable = plan.sourceTable else { return }
        var names = ["\"Z_PK\"", "\"Z_ENT\"", "\"Z_OPT\""]
        var values = ["\"Z_PK\"", entityNumberExpression(plan), "\"Z_OPT\""]
        for (column, fill) in zip(table.columns, plan.columns) {
            guard let expression = fill.expression else { continue }
            names.append(column.name.quoted)
            values.append(expression)
        }
        let kept = plan.entityNumbers.map { String($0.old) }.joined(separator: ", ")
        try db.execute(sql: "INSERT INTO \(name.quoted) (\(names.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) FROM \(source.tables[sourceTable].name.quoted) WHERE \"Z_ENT\" IN (\(kept))")
    }

    private func changeInPlace(_ plan: TablePlan, _ db: Database) throws {
        let table = destination.tables[plan.table]
        let name = table.name.quoted
        let kept = plan.entityNumbers.map { String($0.old) }.joined(separator: ", ")
        try db.execute(sql: "DELETE FROM \(name) WHERE \"Z_ENT\" NOT IN (\(kept))")
        let existing = Set(source.tables[plan.sourceTable!].columns.map { $0.name.name.uppercased() })
        for column in table.columns where !existing.contains(column.name.name.uppercased()) {
            try db.execute(sql: "ALTER TABLE \(name) ADD COLUMN \(column.name.quoted) \(column.declaredType)")
        }
        // One UPDATE: every SET reads the row as it was, so Z_ENT is renumbered in the same
        // statement that reads the old numbers.
        var assignments: [String] = []
        let renumbering = entityNumberExpression(plan)
        if renumbering != "\"Z_ENT\"" { assignments.append("\"Z_ENT\" = \(renumbering)") }
        for (column, fill) in zip(table.columns, plan.columns) where !fill.identity {
            let isNew = !existing.contains(column.name.name.uppercased())
            if isNew, fill.expression == nil { continue }
            assignments.append("\(column.name.quoted) = \(fill.expression ?? "NULL")")
        }
        if !assignments.isEmpty {
            try db.execute(sql: "UPDATE \(name) SET \(assignments.joined(separator: ", "))")
        }
    }

    private func entityNumberExpression(_ plan: TablePlan) -> String {
        let changed = plan.entityNumbers.filter { $0.old != $0.new }
        guard !changed.isEmpty else { return "\"Z_ENT\"" }
        return "CASE \"Z_ENT\" " + changed.map { "WHEN \($0.old) THEN \($0.new)" }.joined(separator: " ") + " ELSE \"Z_ENT\" END"
    }

    /// 134110: a required attribute without a default that some kept row has no value for.
    private func checkRequiredValues(_ db: Database) throws {
        for entityMapping in mapping.entities {
            guard let target = destination.entity(named: entityMapping.destinationEntity), !target.isAbstract,
                  entityMapping.sourceEntity != nil else { continue }
            for property in entityMapping.attributes where property.requiresStoredValue {
                guard case .attribute(let slot)? = target.slotsByName[property.destinationProperty],
                      let column = target.attributes[slot].column else { continue }
                let table = destination.tables[target.tableIndex]
                let missing = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.name.quoted) WHERE \"Z_ENT\" = ? AND \(table.columns[column].name.quoted) IS NULL",
                                               arguments: [target.number]) ?? 0
                if missing > 0 {
                    throw StoreMigrationError(.migrationFailed,
                                              "\(missing) '\(target.name)' object\(missing == 1 ? " has" : "s have") no value for '\(target.name).\(property.destinationProperty)', which '\(mapping.destinationVersionName)' makes required with no default value; give it a default value or keep it optional")
                }
            }
        }
    }

    private func perform(_ item: RelationshipWork, linkTables: [SQLIdentifier], _ db: Database) throws {
        switch item {
        case .foreignKey(let entityIndex, let slot, let links):
            let entity = destination.entities[entityIndex]
            let table = destination.tables[entity.tableIndex]
            let column = entity.column(of: .toOne(slot))!
            let target = destination.entities[entity.toOnes[slot].destination]
            // A to-many made to-one keeps one destination (INFERRED: the first in order, else by key).
            try db.execute(sql: """
                UPDATE \(table.name.quoted) SET \(table.columns[column].name.quoted) = (SELECT l.d FROM \(linkTables[links].quoted) l \
                WHERE l.s = \(table.name.quoted)."Z_PK" AND l.d IN (\(rowsSQL(target))) ORDER BY l.fo, l.d LIMIT 1) \
                WHERE "Z_ENT" BETWEEN \(entity.kinds.lowerBound + 1) AND \(entity.kinds.upperBound + 1)
                """)
        case .positions(let entityIndex, let foreignKey, let column, let links):
            let entity = destination.entities[entityIndex]
            let table = destination.tables[entity.tableIndex]
            let key = table.columns[foreignKey].name.quoted
            let previous = links.map { "(SELECT MIN(l.io) FROM \(linkTables[$0].quoted) l WHERE l.s = t.\"Z_PK\" AND l.d = t.\(key)), " } ?? ""
            try db.execute(sql: "CREATE TEMP TABLE momlint_migration_positions (k INTEGER PRIMARY KEY, p INTEGER)")
            try db.execute(sql: """
                INSERT INTO momlint_migration_positions (k, p) SELECT t."Z_PK", ROW_NUMBER() OVER (PARTITION BY t.\(key) ORDER BY \(previous)t."Z_PK") \
                FROM \(table.name.quoted) t WHERE t.\(key) IS NOT NULL AND t."Z_ENT" BETWEEN \(entity.kinds.lowerBound + 1) AND \(entity.kinds.upperBound + 1)
                """)
            try db.execute(sql: """
                UPDATE \(table.name.quoted) SET \(table.columns[column].name.quoted) = (SELECT p FROM momlint_migration_positions WHERE k = \(table.name.quoted)."Z_PK") \
                WHERE "Z_ENT" BETWEEN \(entity.kinds.lowerBound + 1) AND \(entity.kinds.upperBound + 1)
                """)
            try db.execute(sql: "DROP TABLE momlint_migration_positions")
        case .entityNumber(let entityIndex, let foreignKey, let column, let destinationIndex):
            let entity = destination.entities[entityIndex]
            let table = destination.tables[entity.tableIndex]
            let target = destination.tables[destination.entities[destinationIndex].tableIndex]
            try db.execute(sql: """
                UPDATE \(table.name.quoted) SET \(table.columns[column].name.quoted) = (SELECT d."Z_ENT" FROM \(target.name.quoted) d \
                WHERE d."Z_PK" = \(table.name.quoted).\(table.columns[foreignKey].name.quoted)) \
                WHERE "Z_ENT" BETWEEN \(entity.kinds.lowerBound + 1) AND \(entity.kinds.upperBound + 1)
                """)
        case .joinTable(let index, let links):
            let join = destination.joinTables[index]
            try db.execute(sql: StoreSchema.createJoinTableSQL(join))
            guard let links else { return }
            let (owners, members) = joinEnds(index)
            var columns = [join.ownerColumn.quoted, join.memberColumn.quoted]
            var values = ["s", "d"]
            if let order = join.ownerOrderColumn {
                columns.append(order.quoted)
                values.append("ROW_NUMBER() OVER (PARTITION BY s ORDER BY fo, d)")
            }
            if let order = join.memberOrderColumn {
                columns.append(order.quoted)
                values.append("ROW_NUMBER() OVER (PARTITION BY d ORDER BY io, s)")
            }
            try db.execute(sql: """
                INSERT INTO \(join.name.quoted) (\(columns.joined(separator: ", "))) SELECT \(values.joined(separator: ", ")) \
                FROM (SELECT s, d, MIN(fo) AS fo, MIN(io) AS io FROM \(linkTables[links].quoted) GROUP BY s, d) \
                WHERE s IN (\(rowsSQL(owners))) AND d IN (\(rowsSQL(members))) ORDER BY s, d
                """)
        case .keepJoinTable(let index):
            let join = destination.joinTables[index]
            let (owners, members) = joinEnds(index)
            try db.execute(sql: "DELETE FROM \(join.name.quoted) WHERE \(join.ownerColumn.quoted) NOT IN (\(rowsSQL(owners))) OR \(join.memberColumn.quoted) NOT IN (\(rowsSQL(members)))")
        }
    }

    /// The entities whose objects a join table's owner and member columns hold.
    private func joinEnds(_ index: Int) -> (EntityMapping, EntityMapping) {
        for entity in destination.entities {
            for toMany in entity.toManys {
                if case .joinTable(index, .owner) = toMany.storage {
                    return (entity, destination.entities[toMany.destination])
                }
            }
        }
        preconditionFailure("join table \(index) has no owner relationship")
    }

    /// `SELECT Z_PK` of the live rows of an entity and its sub-entities, after migration.
    private func rowsSQL(_ entity: EntityMapping) -> String {
        "SELECT \"Z_PK\" FROM \(destination.tables[entity.tableIndex].name.quoted) WHERE \"Z_ENT\" BETWEEN \(entity.kinds.lowerBound + 1) AND \(entity.kinds.upperBound + 1)"
    }

    /// Drops the source's indexes the destination does not have as they are, and creates the
    /// destination's that are missing (a rebuilt table lost its indexes with the old table).
    private func replaceIndexes(_ db: Database) throws {
        var present: [String: String] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL") {
            present[(row[0] as String).uppercased()] = row[1]
        }
        let wanted = Dictionary(destination.indexes.map { ($0.name.name.uppercased(), StoreSchema.createIndexSQL($0)) },
                                uniquingKeysWith: { first, _ in first })
        for index in source.indexes {
            let key = index.name.name.uppercased()
            if present[key] != nil, present[key] != wanted[key] {
                try db.execute(sql: "DROP INDEX \(index.name.quoted)")
                present[key] = nil
            }
        }
        for index in destination.indexes {
            let key = index.name.name.uppercased()
            if let existing = present[key] {
                if existing == wanted[key] { continue }
                try db.execute(sql: "DROP INDEX \(index.name.quoted)")
            }
            try db.execute(sql: wanted[key]!)
        }
    }

    /// `Z_PRIMARYKEY` rewritten for the destination's entities (each hierarchy's highest key
    /// kept), the metadata's model identity updated, and a Core Data store's cached model
    /// (`Z_MODELCACHE`, a compiled copy of the source model) emptied.
    private func writeBookkeeping(_ db: Database) throws {
        var highest: [Int: Int64] = [:]
        for plan in tablePlans {
            let root = destination.tables[plan.table].rootEntity
            let table = destination.tables[plan.table]
            var key = try StoredInteger.fetchPrimaryKeys(db, sql: "SELECT \"Z_PK\" FROM \(table.name.quoted) ORDER BY \"Z_PK\" DESC LIMIT 1",
                                                         table: table.name.name).first ?? 0
            if let sourceTable = plan.sourceTable {
                let sourceRoot = source.tables[sourceTable].rootEntity + 1
                key = max(key, file.entities.first { $0.number == sourceRoot }?.highestPrimaryKey ?? 0)
            }
            highest[root] = key
        }
        try db.execute(sql: "DELETE FROM \"Z_PRIMARYKEY\"")
        for entity in destination.entities {
            try db.execute(sql: "INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES (?, ?, ?, ?)",
                           arguments: [entity.number, entity.name, entity.parentIndex.map { $0 + 1 } ?? 0, highest[entity.index] ?? 0])
        }
        guard let row = try Row.fetchOne(db, sql: "SELECT \"Z_VERSION\", \"Z_PLIST\" FROM \"Z_METADATA\" ORDER BY \"Z_VERSION\" LIMIT 1"),
              let data = row[1] as Data? else { return }
        var format = PropertyListSerialization.PropertyListFormat.xml
        guard var plist = try PropertyListSerialization.propertyList(from: data, options: [], format: &format) as? [String: Any] else { return }
        if file.writer == .momlint {
            plist[StoreMetadata.fingerprintKey] = destination.fingerprint
            plist["MomlintLayoutVersion"] = StoreSchema.layoutVersion
            plist["MomlintEntityNames"] = destination.entities.map(\.name)
        } else {
            // Core Data's hashes describe the source model and their algorithm is not
            // documented: they are removed rather than left to misdescribe the file, so Core
            // Data refuses it instead of misreading it.
            plist["NSStoreModelVersionHashes"] = nil
            plist["NSStoreModelVersionIdentifiers"] = [destinationModel.userDefinedModelVersionIdentifier ?? ""]
        }
        let written = try PropertyListSerialization.data(fromPropertyList: plist, format: format, options: 0)
        // The row's own Z_VERSION value, whatever it holds, names it (no decode of a foreign value).
        try db.execute(sql: "UPDATE \"Z_METADATA\" SET \"Z_PLIST\" = ? WHERE \"Z_VERSION\" IS ?", arguments: [written, row[0] as DatabaseValue])
        if try db.tableExists("Z_MODELCACHE") {
            try db.execute(sql: "DELETE FROM \"Z_MODELCACHE\"")
        }
    }
}

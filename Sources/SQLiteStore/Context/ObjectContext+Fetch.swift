import Conformance
import GRDB

extension ObjectContext {
    /// Live objects of `entity` (and its sub-entities) whose attributes equal the given values,
    /// by ID: saved rows the context does not hold are filtered in SQL, held objects (which may
    /// have pending changes) by their current values, and inserted objects are added.
    mutating func fetch(_ entity: EntityMapping, where conditions: [(slot: Int, value: AttributeValue)],
                        _ db: Database) throws -> [ObjectID] {
        let table = schema.tables[entity.tableIndex]
        var sql = "SELECT \"Z_PK\" FROM \(table.name.quoted) WHERE \"Z_ENT\" BETWEEN \(entity.kinds.lowerBound + 1) AND \(entity.kinds.upperBound + 1)"
        var arguments: [DatabaseValue] = []
        for (slot, value) in conditions {
            guard let column = entity.attributes[slot].column else {
                // A transient attribute is not stored: only held objects can match it.
                sql += " AND 0"
                continue
            }
            if value == .null {
                sql += " AND \(table.columns[column].name.quoted) IS NULL"
            } else {
                sql += " AND \(table.columns[column].name.quoted) = ?"
                arguments.append(StoredValue.databaseValue(value))
            }
        }
        if setDeletedTables.contains(entity.tableIndex) {
            sql += " AND \"Z_PK\" + \(Self.keyOffset(entity.tableIndex)) NOT IN \(Self.deletedKeys)"
        }
        var result: [ObjectID] = []
        for key in try StoredInteger.fetchPrimaryKeys(db, sql: sql, arguments: StatementArguments(arguments), table: table.name.name) {
            let id = ObjectID(table: entity.tableIndex, primaryKey: key)
            if objects[id] == nil { result.append(id) }
        }
        for (id, state) in objects where state.isLive && entity.kinds.contains(state.entity) {
            if conditions.allSatisfy({ state.attributes[$0.slot] == $0.value }) { result.append(id) }
        }
        return result.sorted()
    }
}

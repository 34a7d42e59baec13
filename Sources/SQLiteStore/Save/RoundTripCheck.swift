import Conformance
import GRDB

/// Before a save writes into a store Core Data wrote, checks that every saved row the save
/// rewrites reads back as what the file holds: each of its columns, decoded as the model's
/// attribute type and encoded again, gives the same SQLite value. A row that would not (a
/// value in a form momlint does not know) makes the save fail before anything is written.
struct RoundTripCheck {
    let context: ObjectContext
    let db: Database
    let path: String

    private var schema: StoreSchema { context.schema }

    func verify() throws {
        for (id, state) in context.objects.sorted(by: { $0.key < $1.key })
        where !state.isInserted && (state.isChanged || state.isDeleted) {
            let table = schema.tables[id.table]
            guard let row = try Row.fetchOne(db.cachedStatement(sql: table.selectByKeySQL), arguments: [id.primaryKey]) else { continue }
            let entity = schema.entities[state.entity]
            for attribute in entity.attributes {
                guard let column = attribute.column else { continue }
                let stored: DatabaseValue = row[3 + column]
                let again = StoredValue.databaseValue(StoredValue.attributeValue(stored, as: attribute.type))
                guard Self.same(stored, again) else {
                    throw SQLiteStoreError(.invalidRequest,
                                           "refusing to write '\(path)': row \(id.primaryKey) of \(table.name.name) holds \(stored) in \(table.columns[column].name.name) ('\(entity.name).\(attribute.name)'), which would not be written back unchanged")
                }
            }
        }
    }

    /// Equal storage, or numbers equal by value (column affinity may store 2.0 as 2).
    private static func same(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
        switch (a.storage, b.storage) {
        case (.int64(let x), .double(let y)), (.double(let y), .int64(let x)): Double(x) == y
        default: a == b
        }
    }
}

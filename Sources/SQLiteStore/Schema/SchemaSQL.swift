import Foundation
import GRDB

extension StoreSchema {
    /// Bumped when the mapping from models to tables changes, so that a file written by an
    /// older layout is refused rather than misread.
    static let layoutVersion = 1

    /// `CREATE` statements for the model's tables and indexes, and for Core Data's metadata
    /// tables `Z_PRIMARYKEY` and `Z_METADATA` (coredata-semantics §7).
    var creationSQL: [String] {
        var statements: [String] = []
        for table in tables {
            let columns = ["\"Z_PK\" INTEGER PRIMARY KEY", "\"Z_ENT\" INTEGER", "\"Z_OPT\" INTEGER"]
                + table.columns.map { "\($0.name.quoted) \($0.declaredType)" }
            statements.append("CREATE TABLE \(table.name.quoted) (\(columns.joined(separator: ", ")))")
        }
        for join in joinTables {
            var columns = ["\(join.ownerColumn.quoted) INTEGER", "\(join.memberColumn.quoted) INTEGER"]
            if let order = join.ownerOrderColumn { columns.append("\(order.quoted) INTEGER") }
            if let order = join.memberOrderColumn { columns.append("\(order.quoted) INTEGER") }
            columns.append("PRIMARY KEY (\(join.ownerColumn.quoted), \(join.memberColumn.quoted))")
            statements.append("CREATE TABLE \(join.name.quoted) (\(columns.joined(separator: ", ")))")
        }
        for index in indexes {
            var sql = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name.quoted) ON \(index.table.quoted) ("
                + index.columns.map(\.quoted).joined(separator: ", ") + ")"
            if let numbers = index.entityNumbers {
                sql += " WHERE \"Z_ENT\" BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
            }
            statements.append(sql)
        }
        statements.append("CREATE TABLE \"Z_PRIMARYKEY\" (\"Z_ENT\" INTEGER PRIMARY KEY, \"Z_NAME\" VARCHAR, \"Z_SUPER\" INTEGER, \"Z_MAX\" INTEGER)")
        statements.append("CREATE TABLE \"Z_METADATA\" (\"Z_VERSION\" INTEGER PRIMARY KEY, \"Z_UUID\" VARCHAR(255), \"Z_PLIST\" BLOB)")
        return statements
    }

    /// The model's identity as far as the file is concerned: a hash of the layout (tables,
    /// columns, indexes) and of what the columns mean (entity numbers, relationship
    /// destinations and inverses). Two models with the same fingerprint read each other's files
    /// correctly; anything else is refused at open.
    var fingerprint: String {
        var text = "layout \(Self.layoutVersion)\n" + creationSQL.joined(separator: "\n")
        for entity in entities {
            text += "\nentity \(entity.number) \(entity.name) parent \(entity.parentIndex.map { $0 + 1 } ?? 0)"
            for attribute in entity.attributes {
                text += " a:\(attribute.name):\(attribute.type.xmlName)"
            }
            for relationship in entity.toOnes + entity.toManys {
                text += " r:\(relationship.name)>\(relationship.destination + 1):\(String(describing: relationship.inverse)):\(relationship.storage)"
            }
        }
        // FNV-1a, 64 bits: stable across runs and platforms, unlike `Hasher`.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16, uppercase: true)
    }
}

/// The store's bookkeeping rows: `Z_PRIMARYKEY` (one row per entity; the hierarchy's highest
/// `Z_PK` in its root's `Z_MAX`, since sub-entities share the root's table and key sequence)
/// and `Z_METADATA` (the store's UUID and a property list naming the model's fingerprint).
enum StoreMetadata {
    static let fingerprintKey = "MomlintSchemaFingerprint"

    static func create(_ schema: StoreSchema, in db: Database) throws {
        for statement in schema.creationSQL {
            try db.execute(sql: statement)
        }
        for entity in schema.entities {
            try db.execute(sql: "INSERT INTO \"Z_PRIMARYKEY\" (\"Z_ENT\", \"Z_NAME\", \"Z_SUPER\", \"Z_MAX\") VALUES (?, ?, ?, 0)",
                           arguments: [entity.number, entity.name, entity.parentIndex.map { $0 + 1 } ?? 0])
        }
        let uuid = UUID().uuidString
        let plist: [String: Any] = [
            "NSStoreType": "SQLite",
            "NSStoreUUID": uuid,
            fingerprintKey: schema.fingerprint,
            "MomlintLayoutVersion": StoreSchema.layoutVersion,
            "MomlintEntityNames": schema.entities.map(\.name),
        ]
        let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0)
        try db.execute(sql: "INSERT INTO \"Z_METADATA\" (\"Z_VERSION\", \"Z_UUID\", \"Z_PLIST\") VALUES (1, ?, ?)",
                       arguments: [uuid, data])
    }

    /// Checks that the file was created for this schema; throws a one-line explanation if not.
    static func verify(_ schema: StoreSchema, in db: Database, path: String) throws {
        guard try db.tableExists("Z_METADATA"),
              let data = try Data.fetchOne(db, sql: "SELECT \"Z_PLIST\" FROM \"Z_METADATA\" WHERE \"Z_VERSION\" = 1")
        else {
            throw SQLiteStoreError(.incompatibleFile,
                                   "'\(path)' is an SQLite database but not a momlint store (no Z_METADATA row); open an empty path to create one")
        }
        let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any]
        let stored = plist?[fingerprintKey] as? String
        guard stored == schema.fingerprint else {
            throw SQLiteStoreError(.incompatibleFile,
                                   "'\(path)' was created for a different model (schema fingerprint \(stored ?? "missing"), this model's is \(schema.fingerprint)); open it with the model it was created with, or start a new file")
        }
    }

    /// The highest primary key used in each table, from `Z_PRIMARYKEY` (and the table itself,
    /// in case another writer added rows without updating it).
    static func highestPrimaryKeys(_ schema: StoreSchema, in db: Database) throws -> [Int64] {
        try schema.tables.map { table in
            let recorded = try Int64.fetchOne(db, sql: "SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = ?",
                                              arguments: [table.rootEntity + 1]) ?? 0
            let present = try Int64.fetchOne(db, sql: "SELECT MAX(\"Z_PK\") FROM \(table.name.quoted)") ?? 0
            return max(recorded, present)
        }
    }

    static func recordHighestPrimaryKeys(_ keys: [Int64], _ schema: StoreSchema, in db: Database) throws {
        for (table, key) in zip(schema.tables, keys) {
            try db.execute(sql: "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = ? WHERE \"Z_ENT\" = ?",
                           arguments: [key, table.rootEntity + 1])
        }
    }
}

import DataModel
import Foundation
import GRDB

extension StoreSchema {
    /// Bumped when the mapping from models to tables changes, so that a file written by an
    /// older layout is refused rather than misread.
    static let layoutVersion = 2

    /// `CREATE` statements for the model's tables and indexes, and for Core Data's metadata
    /// tables `Z_PRIMARYKEY` and `Z_METADATA` (coredata-semantics §7).
    var creationSQL: [String] {
        tables.map { Self.createTableSQL($0, named: $0.name) }
            + joinTables.map(Self.createJoinTableSQL)
            + indexes.map(Self.createIndexSQL)
            + [
                "CREATE TABLE \"Z_PRIMARYKEY\" (\"Z_ENT\" INTEGER PRIMARY KEY, \"Z_NAME\" VARCHAR, \"Z_SUPER\" INTEGER, \"Z_MAX\" INTEGER)",
                "CREATE TABLE \"Z_METADATA\" (\"Z_VERSION\" INTEGER PRIMARY KEY, \"Z_UUID\" VARCHAR(255), \"Z_PLIST\" BLOB)",
            ]
    }

    /// `CREATE TABLE` for a hierarchy's table, under `name` (a migration builds it under a
    /// temporary name first).
    static func createTableSQL(_ table: TableMapping, named name: SQLIdentifier) -> String {
        let columns = ["\"Z_PK\" INTEGER PRIMARY KEY", "\"Z_ENT\" INTEGER", "\"Z_OPT\" INTEGER"]
            + declarationOrder(table.columns).map { "\($0.name.quoted) \($0.declaredType)" }
        return "CREATE TABLE \(name.quoted) (\(columns.joined(separator: ", ")))"
    }

    static func createJoinTableSQL(_ join: JoinTableMapping) -> String {
        var columns = ["\(join.ownerColumn.quoted) INTEGER", "\(join.memberColumn.quoted) INTEGER"]
        if let order = join.ownerOrderColumn { columns.append("\(order.quoted) INTEGER") }
        if let order = join.memberOrderColumn { columns.append("\(order.quoted) INTEGER") }
        columns.append("PRIMARY KEY (\(join.ownerColumn.quoted), \(join.memberColumn.quoted))")
        return "CREATE TABLE \(join.name.quoted) (\(columns.joined(separator: ", ")))"
    }

    static func createIndexSQL(_ index: IndexMapping) -> String {
        let columns = index.columns.enumerated().map { position, column in
            column.quoted + (index.columnOrders.map { " " + $0[position] } ?? "")
        }
        var sql = "CREATE \(index.isUnique ? "UNIQUE " : "")INDEX \(index.name.quoted) ON \(index.table.quoted) ("
            + columns.joined(separator: ", ") + ")"
        if let numbers = index.entityNumbers {
            sql += " WHERE \"Z_ENT\" BETWEEN \(numbers.lowerBound) AND \(numbers.upperBound)"
        }
        return sql
    }

    /// Columns in the order Core Data declares them: grouped by type — INTEGER, then
    /// TIMESTAMP, VARCHAR, BLOB, as every real store shows (`ZTODOITEM (… ZDONE INTEGER,
    /// ZREPEATS INTEGER, ZPROJECT INTEGER, ZDATE TIMESTAMP, ZNAME VARCHAR, ZNOTES VARCHAR)`,
    /// docs/sqlite-store.md) — and otherwise in mapping order (attributes, then to-ones).
    /// Where FLOAT and DECIMAL go is INFERRED (after INTEGER). Only the declaration is
    /// reordered: every statement names its columns, so nothing reads them by position.
    static func declarationOrder(_ columns: [ColumnMapping]) -> [ColumnMapping] {
        let rank = ["INTEGER": 0, "FLOAT": 1, "DECIMAL": 2, "TIMESTAMP": 3, "VARCHAR": 4, "BLOB": 5]
        return columns.enumerated()
            .sorted { (rank[$0.element.declaredType] ?? 6, $0.offset) < (rank[$1.element.declaredType] ?? 6, $1.offset) }
            .map(\.element)
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
            // Core Data's keys where momlint has a value for them; never its version hashes,
            // whose algorithm is not documented.
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

    /// Decides whether a file that exists may be opened for this schema with `access`; throws
    /// a one-line explanation if not. A momlint store must carry this schema's fingerprint; a
    /// Core Data store must have this model's layout (`StoreSchema.differences(from:)`) and
    /// is written to only with `.readWriteIncludingCoreDataStores`.
    ///
    /// With `model`, a Core Data store whose metadata hashes are that model's is read by entity
    /// number whatever names `Z_PRIMARYKEY` keeps (a store migrated across an entity rename).
    static func verify(_ schema: StoreSchema, against file: StoreFileDescription,
                       access: SQLiteObjectStore.Access, model: Model? = nil) throws(SQLiteStoreError) {
        switch file.writer {
        case .momlint:
            guard file.momlintFingerprint == schema.fingerprint else {
                throw SQLiteStoreError(.incompatibleFile,
                                       "'\(file.path)' is \(file.summary), created for a different model or an older momlint layout (layout fingerprint \(file.momlintFingerprint ?? "?"), this model's is \(schema.fingerprint)); open it with the model it was created with, migrate it (SQLiteObjectStore.migrateStore), or start a new file")
            }
        case .coreData:
            let vouched = model.map { StoreHashIdentity.matches(file, $0) } ?? false
            let differences = schema.differences(from: file, namesAreVouchedFor: vouched)
            if let first = differences.first {
                let more = differences.count > 1 ? " (and \(differences.count - 1) more difference\(differences.count == 2 ? "" : "s"))" : ""
                throw SQLiteStoreError(.incompatibleFile,
                                       "'\(file.path)' is \(file.summary), written by another version of the model: \(first)\(more); open it with the version that wrote it (momlint store which-version)")
            }
            if access == .readWrite {
                throw SQLiteStoreError(.incompatibleFile,
                                       "'\(file.path)' is \(file.summary); momlint does not write to a store it did not create unless asked: open it read-only, or with access .readWriteIncludingCoreDataStores")
            }
            // Core Data records every change in its persistent history, which other processes
            // and CloudKit mirroring read to learn what changed; momlint does not write it, so a
            // change (or a migration, which renumbers the entities the history names) would be
            // invisible or misdescribed there.
            if access != .readOnly, file.keepsPersistentHistory {
                throw SQLiteStoreError(.incompatibleFile,
                                       "'\(file.path)' is \(file.summary); momlint does not write to a store that keeps Core Data's persistent history, which would not record the change: open it read-only")
            }
        }
    }

    /// The highest primary key used in each table, from `Z_PRIMARYKEY` (and the table itself,
    /// in case another writer added rows without updating it).
    static func highestPrimaryKeys(_ schema: StoreSchema, in db: Database) throws -> [Int64] {
        try schema.tables.map { table in
            let entity = table.rootEntity + 1
            let recorded = try DatabaseValue.fetchOne(db, sql: "SELECT \"Z_MAX\" FROM \"Z_PRIMARYKEY\" WHERE \"Z_ENT\" = ?",
                                                      arguments: [entity]) ?? .null
            let present = try StoredInteger.fetchPrimaryKeys(db, sql: "SELECT \"Z_PK\" FROM \(table.name.quoted) ORDER BY \"Z_PK\" DESC LIMIT 1",
                                                             table: table.name.name)
            return max(try StoredInteger.read(recorded, at: .init(row: "the Z_PRIMARYKEY row of entity \(entity)", column: "Z_MAX"),
                                              meaning: "a primary key") ?? 0,
                       present.first ?? 0)
        }
    }

    static func recordHighestPrimaryKeys(_ keys: [Int64], _ schema: StoreSchema, in db: Database) throws {
        for (table, key) in zip(schema.tables, keys) {
            try db.execute(sql: "UPDATE \"Z_PRIMARYKEY\" SET \"Z_MAX\" = ? WHERE \"Z_ENT\" = ?",
                           arguments: [key, table.rootEntity + 1])
        }
    }
}

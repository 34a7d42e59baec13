import Foundation
import GRDB

/// What an SQLite file says about itself, read without writing to it: who wrote it (momlint or
/// Core Data), Core Data's metadata, the entities of `Z_PRIMARYKEY`, the tables and columns,
/// and how many rows each entity has.
///
/// Core Data's metadata is the binary property list in `Z_METADATA.Z_PLIST`
/// (`docs/sqlite-store.md`, "Recognising a store"): `NSStoreModelVersionHashes` (entity name →
/// an undocumented hash), `NSStoreModelVersionIdentifiers`, `NSStoreModelVersionHashesVersion`,
/// `NSPersistenceFrameworkVersion`, `NSStoreType`, `NSStoreUUID`.
public struct StoreFileDescription: Sendable {
    public enum Writer: String, Sendable {
        /// A store `SQLiteObjectStore` created (its metadata names momlint's layout).
        case momlint
        /// A store Core Data wrote: `Z_METADATA` and `Z_PRIMARYKEY` without momlint's keys.
        case coreData
    }

    /// One row of `Z_PRIMARYKEY`.
    public struct StoredEntity: Sendable, Hashable {
        public var number: Int
        /// The name Core Data recorded; kept from before a renaming migration (it matches
        /// entities by number).
        public var name: String
        /// The parent's number; 0 for a root.
        public var superNumber: Int
        public var highestPrimaryKey: Int64
    }

    struct Column: Sendable, Hashable {
        var name: String
        var declaredType: String
    }

    public var path: String
    public var writer: Writer
    public var uuid: String?
    public var storeType: String?
    /// `NSPersistenceFrameworkVersion`: the Core Data build that last wrote the metadata.
    public var frameworkVersion: String?
    /// `NSStoreModelVersionHashes`, hex.
    public var versionHashes: [String: String]
    public var versionIdentifiers: [String]
    public var versionHashesVersion: Int?
    /// momlint's fingerprint of the layout, for a store it created.
    public var momlintFingerprint: String?
    public var entities: [StoredEntity]
    /// Rows per `Z_ENT` across every entity table.
    public var rowCounts: [Int: Int]
    /// True when the file is in WAL mode.
    public var isWAL: Bool
    /// Every table, by upper-cased name, with its columns in order.
    var tables: [String: [Column]]
    /// Upper-cased names of the indexes.
    var indexNames: Set<String>

    /// One line: "a Core Data store written by framework version 1344, entities Author (1), Book (2)".
    public var summary: String {
        let names = entities.map { "\($0.name) (\($0.number))" }.joined(separator: ", ")
        switch writer {
        case .momlint:
            return "a momlint SQLite store, entities \(names)"
        case .coreData:
            let version = frameworkVersion.map { "framework version \($0)" } ?? "an unknown framework version"
            return "a Core Data store written by \(version), entities \(names)"
        }
    }

    /// Describes the file at `path` through a view that cannot write (`StoreSnapshot`): the file, its `-wal` and
    /// `-shm` are left byte-identical. Throws a one-line `SQLiteStoreError` for a file that is
    /// missing, not an SQLite database, encrypted, truncated, damaged, or not a store.
    public static func read(path: String) throws(SQLiteStoreError) -> StoreFileDescription {
        guard case .sqlite(let header) = try SQLiteFileHeader.inspect(path) else {
            throw SQLiteStoreError(.incompatibleFile, "'\(path)' does not exist or is empty")
        }
        let snapshot = try StoreSnapshot(of: path)
        do {
            return try snapshot.queue.inDatabase { db in try read(db, path: path, isWAL: header.isWAL) }
        } catch {
            throw SQLiteStoreError.describing(error, path: path)
        }
    }

    /// `countingRows: false` leaves `rowCounts` empty, sparing a scan of every table (a
    /// migration reads the description only to recognise the file).
    static func read(_ db: Database, path: String, isWAL: Bool, countingRows: Bool = true) throws -> StoreFileDescription {
        var tables: [String: [Column]] = [:]
        let tableNames = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        for name in tableNames {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [name])
            tables[name.uppercased()] = columns.map { Column(name: $0[0], declaredType: ($0[1] as String?) ?? "") }
        }
        let indexNames = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'").map { $0.uppercased() })
        guard tables["Z_METADATA"] != nil, tables["Z_PRIMARYKEY"] != nil else {
            throw SQLiteStoreError(.incompatibleFile,
                                   "'\(path)' is an SQLite database but not a Core Data or momlint store (no Z_METADATA and Z_PRIMARYKEY tables)")
        }
        let metadataRow = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        let plistData: Data? = metadataRow?[1]
        guard let plistData,
              let plist = try? PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any]
        else {
            throw SQLiteStoreError(.incompatibleFile, "'\(path)' has a Z_METADATA table without a readable property list")
        }
        var hashes: [String: String] = [:]
        for (entity, value) in plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:] {
            if let data = value as? Data { hashes[entity] = data.map { String(format: "%02x", $0) }.joined() }
        }
        let fingerprint = plist[StoreMetadata.fingerprintKey] as? String
        let entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map {
            StoredEntity(number: $0[0], name: ($0[1] as String?) ?? "", superNumber: ($0[2] as Int?) ?? 0,
                         highestPrimaryKey: ($0[3] as Int64?) ?? 0)
        }
        var rowCounts: [Int: Int] = [:]
        for name in tableNames where countingRows && name.uppercased() != "Z_PRIMARYKEY"
            && !StoreSchema.isBookkeepingTable(name.uppercased())
            && tables[name.uppercased()]!.contains(where: { $0.name.uppercased() == "Z_ENT" }) {
            for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, COUNT(*) FROM \(SQLIdentifier(name).quoted) GROUP BY Z_ENT") {
                let entity: Int = (row[0] as Int?) ?? 0
                rowCounts[entity, default: 0] += row[1] as Int
            }
        }
        let framework: String? = switch plist["NSPersistenceFrameworkVersion"] {
        case let number as Int: String(number)
        case let number as NSNumber: number.stringValue
        case let text as String: text
        default: nil
        }
        return StoreFileDescription(
            path: path, writer: fingerprint == nil ? .coreData : .momlint,
            uuid: plist["NSStoreUUID"] as? String ?? metadataRow?[0], storeType: plist["NSStoreType"] as? String,
            frameworkVersion: framework, versionHashes: hashes,
            versionIdentifiers: (plist["NSStoreModelVersionIdentifiers"] as? [Any] ?? []).map { "\($0)" },
            versionHashesVersion: (plist["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue,
            momlintFingerprint: fingerprint, entities: entities, rowCounts: rowCounts, isWAL: isWAL,
            tables: tables, indexNames: indexNames)
    }
}

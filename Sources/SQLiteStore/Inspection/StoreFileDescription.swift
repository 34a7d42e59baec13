import DataModel
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

        /// Numbers from here up are Core Data's own entities, not the model's. A store that
        /// tracks persistent history lists `CHANGE` (16001), `TRANSACTION` (16002) and
        /// `TRANSACTIONSTRING` (16003) in `Z_PRIMARYKEY`, beside the tables `ACHANGE`,
        /// `ATRANSACTION` and `ATRANSACTIONSTRING`. Apple documents the history as entities
        /// (`NSPersistentHistoryChange.entityDescription`: "the entity description of the
        /// persistent history change entity") but not their numbers: 16001–16003 are what real
        /// stores show, so every number from 16000 is taken as Core Data's (INFERRED; a model
        /// never has that many entities).
        public static let firstCoreDataNumber = 16000

        /// True for one of Core Data's own entities (`firstCoreDataNumber`).
        public var isCoreDataOwn: Bool { number >= Self.firstCoreDataNumber }
    }

    struct Column: Sendable, Hashable {
        var name: String
        var declaredType: String
    }

    public var path: String
    public var writer: Writer
    public var uuid: String?
    /// `NSPersistenceFrameworkVersion`: the Core Data build that last wrote the metadata.
    public var frameworkVersion: String?
    /// `NSStoreModelVersionHashes`, hex.
    public var versionHashes: [String: String]
    public var versionIdentifiers: [String]
    public var versionHashesVersion: Int?
    /// momlint's fingerprint of the layout, for a store it created.
    public var momlintFingerprint: String?
    /// The model's entities as `Z_PRIMARYKEY` lists them.
    public var entities: [StoredEntity]
    /// Core Data's own entities that `Z_PRIMARYKEY` also lists (persistent history's; see
    /// `StoredEntity.firstCoreDataNumber`): never compared with a model, never dumped.
    public var coreDataEntities: [StoredEntity]
    /// Rows per `Z_ENT` across every entity table.
    public var rowCounts: [Int: Int]
    /// True when the file is in WAL mode.
    public var isWAL: Bool
    /// Every table, by upper-cased name, with its columns in order.
    var tables: [String: [Column]]
    /// Upper-cased names of the indexes.
    var indexNames: Set<String>

    /// True when the file keeps Core Data's persistent history: its entities in `Z_PRIMARYKEY`
    /// or its tables (`ATRANSACTION`, `ACHANGE`, `ATRANSACTIONSTRING`).
    public var keepsPersistentHistory: Bool {
        !coreDataEntities.isEmpty || ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"].contains { tables[$0] != nil }
    }

    /// One line: "a Core Data store written by framework version 1344, entities Author (1), Book (2)",
    /// followed by "; Core Data's own: CHANGE (16001), …" when it keeps persistent history.
    public var summary: String {
        func list(_ entities: [StoredEntity]) -> String {
            let shown = entities.prefix(50).map { "\(PrintableText.bounded($0.name)) (\($0.number))" }.joined(separator: ", ")
            return entities.count > 50 ? shown + " and \(entities.count - 50) more" : shown
        }
        let own = coreDataEntities.isEmpty ? "" : "; Core Data's own: \(list(coreDataEntities))"
        switch writer {
        case .momlint:
            return "a momlint SQLite store, entities \(list(entities))\(own)"
        case .coreData:
            let version = frameworkVersion.map { "framework version \(PrintableText.bounded($0))" } ?? "an unknown framework version"
            return "a Core Data store written by \(version), entities \(list(entities))\(own)"
        }
    }

    /// Describes the file at `path` through a view that cannot write (`StoreSnapshot`): the file, its `-wal` and
    /// `-shm` are left byte-identical. Throws a one-line `SQLiteStoreError` for a file that is
    /// missing, not an SQLite database, encrypted, truncated, damaged, or not a store.
    public static func read(path: String, limits: StoreReadLimits = StoreReadLimits()) throws(SQLiteStoreError) -> StoreFileDescription {
        guard case .sqlite(let header) = try SQLiteFileHeader.inspect(path) else {
            throw SQLiteStoreError.nothingToRead(at: path)
        }
        let snapshot = try StoreSnapshot(of: path, header: header, limits: limits)
        do {
            return try snapshot.queue.inDatabase { db in try read(db, path: path, isWAL: header.isWAL, limits: limits) }
        } catch {
            throw snapshot.describing(error)
        }
    }

    /// `countingRows: false` leaves `rowCounts` empty, sparing a scan of every table (a
    /// migration reads the description only to recognise the file).
    static func read(_ db: Database, path: String, isWAL: Bool, countingRows: Bool = true,
                     limits: StoreReadLimits = StoreReadLimits()) throws -> StoreFileDescription {
        var tables: [String: [Column]] = [:]
        let tableNames = try ForeignSchema.plainTables(db, path: path, limits: limits)
        for name in tableNames {
            let columns = try Row.fetchAll(db, sql: "SELECT name, type FROM pragma_table_info(?)", arguments: [name])
            tables[name.uppercased()] = columns.map { Column(name: $0[0], declaredType: ($0[1] as String?) ?? "") }
        }
        let indexNames = Set(try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'").map { $0.uppercased() })
        guard tables["Z_METADATA"] != nil, tables["Z_PRIMARYKEY"] != nil else {
            throw SQLiteStoreError(.incompatibleFile,
                                   "\(StoreSidecarFiles.quoted(path)) is an SQLite database but not a Core Data or momlint store (no Z_METADATA and Z_PRIMARYKEY tables)")
        }
        // Every value below is read as a `DatabaseValue` and looked at, never through GRDB's
        // typed subscripts, which stop the process on a value of an unexpected kind
        // (`StoredInteger`).
        // The property list's length first (length() of a BLOB reads only its header), so a
        // huge one is refused before it is loaded.
        let plistLength = try Row.fetchOne(db, sql: "SELECT length(Z_PLIST) FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")?[0] as DatabaseValue?
        if case .int64(let length)? = plistLength?.storage, length > limits.maximumMetadataBytes {
            throw SQLiteStoreError(.incompatibleFile,
                                   "\(StoreSidecarFiles.quoted(path)) has a metadata property list (Z_METADATA.Z_PLIST) of \(length) bytes, over the limit of \(limits.maximumMetadataBytes); Core Data writes a few kilobytes")
        }
        let metadataRow = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA ORDER BY Z_VERSION LIMIT 1")
        let plistData: Data? = switch (metadataRow?[1] as DatabaseValue?)?.storage {
        case .blob(let bytes)?: bytes
        case .string(let text)?: Data(text.utf8)
        default: nil
        }
        guard let plistData else {
            throw SQLiteStoreError(.incompatibleFile, "\(StoreSidecarFiles.quoted(path)) has a Z_METADATA table without a property list")
        }
        do {
            try BinaryPropertyListBudget(objects: limits.maximumMetadataObjects, depth: limits.maximumMetadataDepth).check(plistData)
        } catch {
            throw SQLiteStoreError(.incompatibleFile, "\(StoreSidecarFiles.quoted(path)) has a metadata property list (Z_METADATA.Z_PLIST) momlint does not read: \(error.description)")
        }
        // Only what can be a property list goes to Foundation: binary, or XML (Foundation's
        // parser also leaks its error for text that is neither, which the store fuzzer found).
        let opening = String(decoding: plistData.prefix(64), as: UTF8.self).drop { $0.isWhitespace || $0 == "\u{FEFF}" }
        guard plistData.starts(with: Array("bplist0".utf8)) || opening.hasPrefix("<"),
              let plist = try? PropertyListSerialization.propertyList(from: plistData, format: nil) as? [String: Any] else {
            throw SQLiteStoreError(.incompatibleFile, "\(StoreSidecarFiles.quoted(path)) has a Z_METADATA table without a readable property list")
        }
        var hashes: [String: String] = [:]
        for (entity, value) in plist["NSStoreModelVersionHashes"] as? [String: Any] ?? [:] {
            if let data = value as? Data { hashes[entity] = data.map { String(format: "%02x", $0) }.joined() }
        }
        let fingerprint = plist[StoreMetadata.fingerprintKey] as? String
        let entities = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { row in
            let number = try StoredInteger.readRequired(row[0], at: .init(row: "a row of Z_PRIMARYKEY", column: "Z_ENT"),
                                                        meaning: "an entity number")
            let location = { (column: String) in StoredInteger.Location(row: "the Z_PRIMARYKEY row of entity \(number)", column: column) }
            let superNumber = try StoredInteger.read(row[2], at: location("Z_SUPER"), meaning: "an entity number") ?? 0
            return StoredEntity(number: Int(number), name: Self.text(row[1]) ?? "", superNumber: Int(superNumber),
                                highestPrimaryKey: try StoredInteger.read(row[3], at: location("Z_MAX"), meaning: "a primary key") ?? 0)
        }
        var rowCounts: [Int: Int] = [:]
        for name in tableNames where countingRows && name.uppercased() != "Z_PRIMARYKEY"
            && !StoreSchema.isBookkeepingTable(name.uppercased())
            && tables[name.uppercased()]!.contains(where: { $0.name.uppercased() == "Z_ENT" }) {
            // MIN(Z_PK) names a row of the group in the message about a Z_ENT it cannot mean.
            let hasKey = tables[name.uppercased()]!.contains { $0.name.uppercased() == "Z_PK" }
            let sql = "SELECT Z_ENT, COUNT(*), \(hasKey ? "MIN(Z_PK)" : "NULL") FROM \(SQLIdentifier(name).quoted) GROUP BY Z_ENT"
            for row in try Row.fetchAll(db, sql: sql) {
                let key = try? StoredInteger.read(row[2], at: .row(nil, of: name, column: "Z_PK"), meaning: "a primary key")
                let location = StoredInteger.Location.row(key, of: name, column: "Z_ENT")
                let number = try StoredInteger.read(row[0], at: location, meaning: "an entity number") ?? 0
                rowCounts[Int(number), default: 0] += row[1] as Int  // COUNT(*): always an integer
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
            uuid: plist["NSStoreUUID"] as? String ?? metadataRow.flatMap { Self.text($0[0]) },
            frameworkVersion: framework, versionHashes: hashes,
            versionIdentifiers: (plist["NSStoreModelVersionIdentifiers"] as? [Any] ?? []).map { "\($0)" },
            versionHashesVersion: (plist["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue,
            momlintFingerprint: fingerprint, entities: entities.filter { !$0.isCoreDataOwn },
            coreDataEntities: entities.filter(\.isCoreDataOwn), rowCounts: rowCounts, isWAL: isWAL,
            tables: tables, indexNames: indexNames)
    }

    /// A text value as a string: TEXT as it is, a BLOB when it is UTF-8, a number written out.
    private static func text(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: nil
        case .string(let text): text
        case .blob(let bytes): String(data: bytes, encoding: .utf8)
        case .int64(let number): String(number)
        case .double(let number): String(number)
        }
    }
}

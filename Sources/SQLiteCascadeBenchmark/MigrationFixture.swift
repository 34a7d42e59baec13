import DataModel
import Foundation
import GRDB
import SQLiteStore

/// Which model change a migration benchmark applies to the notes store.
public enum MigrationChange: String, Hashable, Sendable, CaseIterable {
    /// An optional attribute and one with a default added: `ALTER TABLE … ADD COLUMN` twice and
    /// an `UPDATE` writing the default into every row.
    case addColumns = "add-columns"
    /// An attribute renamed (renaming identifier) and one removed: the table rebuilt (create,
    /// copy, drop, rename) and its index made again.
    case rebuildTable = "rebuild-table"
}

/// How the migration is done.
public enum MigrationMethod: String, Hashable, Sendable, CaseIterable {
    /// `SQLiteObjectStore.migrateStore`: the store recognises the file, infers the mapping,
    /// plans the statements, runs them and rewrites its bookkeeping, in one transaction.
    case store
    /// The same `ALTER TABLE`/copy statements written by hand, in one transaction.
    case plainSQL
}

/// A store of `rows` notes (in 100 folders) saved with version 1 of a small notes model, ready
/// to be migrated; preparing is separate so that a benchmark measures only `migrate`:
///
/// ```swift
/// let fixture = try MigrationFixture.prepare(rows: 100_000, at: path)   // untimed
/// try fixture.migrate(.rebuildTable, by: .store)                       // measure this
/// try fixture.verify(.rebuildTable)
/// ```
public struct MigrationFixture: Sendable {
    public static let issueRows = 100_000
    public let rows: Int
    public let path: String

    static let version1 = """
        <entity name="Folder">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="Note">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="body" optional="YES" attributeType="String"/>
            <attribute name="created" optional="YES" attributeType="Date"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
        </entity>
        """

    /// Version 1, or the version `change` leads to.
    public static func model(after change: MigrationChange? = nil) throws -> Model {
        var entities = version1
        switch change {
        case nil:
            break
        case .addColumns?:
            entities = entities.replacingOccurrences(
                of: #"<attribute name="created" optional="YES" attributeType="Date"/>"#,
                with: #"<attribute name="created" optional="YES" attributeType="Date"/><attribute name="pinned" optional="YES" attributeType="Boolean"/><attribute name="priority" attributeType="Integer 16" defaultValueString="3"/>"#)
        case .rebuildTable?:
            entities = entities
                .replacingOccurrences(of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
                                      with: #"<attribute name="heading" optional="YES" attributeType="String" elementID="title"/>"#)
                .replacingOccurrences(of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: "")
        }
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            \(entities)
            </model>
            """
        return try ModelLoader().model(fromContents: Array(contents.utf8),
                                       file: "Notes \(change?.rawValue ?? "1").xcdatamodel/contents")
    }

    /// Creates a version-1 store at `path` (which must not exist): the tables and folders
    /// through the store's API, the notes by one bulk `INSERT` into the store's own layout
    /// (`ZNOTE`, entity 2), with `Z_PRIMARYKEY` kept up to date.
    public static func prepare(rows: Int, at path: String) throws -> MigrationFixture {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CascadeBenchmarkError("'\(path)' already exists; prepare each data set in a new file")
        }
        let store = try SQLiteObjectStore(path: path, model: try model())
        for index in 1...100 { try store.insert("Folder", values: ["name": .string("folder \(index)")]) }
        try store.save()
        try store.close()
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        try db.write { db in
            try db.execute(sql: """
                WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
                INSERT INTO ZNOTE (Z_PK, Z_ENT, Z_OPT, ZTITLE, ZBODY, ZCREATED, ZFOLDER)
                SELECT i, 2, 1, 'note ' || i, 'the body of note ' || i, i * 60.0, i % 100 + 1 FROM n
                """, arguments: [rows])
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = 2", arguments: [rows])
        }
        return MigrationFixture(rows: rows, path: path)
    }

    /// Migrates the store to the version `change` leads to, by `method`, and commits.
    public func migrate(_ change: MigrationChange, by method: MigrationMethod) throws {
        switch method {
        case .store:
            try SQLiteObjectStore.migrateStore(at: path, from: try Self.model(), to: try Self.model(after: change))
        case .plainSQL:
            let db = try DatabaseQueue(path: path)
            defer { try? db.close() }
            try db.write { db in
                switch change {
                case .addColumns:
                    try db.execute(sql: """
                        ALTER TABLE ZNOTE ADD COLUMN ZPINNED INTEGER;
                        ALTER TABLE ZNOTE ADD COLUMN ZPRIORITY INTEGER;
                        UPDATE ZNOTE SET ZPRIORITY = 3;
                        """)
                case .rebuildTable:
                    try db.execute(sql: """
                        CREATE TABLE ZNOTE_NEW (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZFOLDER INTEGER, ZCREATED TIMESTAMP, ZHEADING VARCHAR);
                        INSERT INTO ZNOTE_NEW (Z_PK, Z_ENT, Z_OPT, ZFOLDER, ZCREATED, ZHEADING) SELECT Z_PK, Z_ENT, Z_OPT, ZFOLDER, ZCREATED, ZTITLE FROM ZNOTE;
                        DROP TABLE ZNOTE;
                        ALTER TABLE ZNOTE_NEW RENAME TO ZNOTE;
                        CREATE INDEX ZNOTE_ZFOLDER_INDEX ON ZNOTE (ZFOLDER);
                        """)
                }
            }
        }
    }

    /// Checks that every note was migrated: all rows there, with the new column's values and
    /// the kept ones' (throws `CascadeBenchmarkError` otherwise).
    public func verify(_ change: MigrationChange) throws {
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        let (expected, found): (Int, Int) = try db.read { db in
            switch change {
            case .addColumns:
                (rows, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE WHERE ZPRIORITY = 3 AND ZPINNED IS NULL AND ZTITLE = 'note ' || Z_PK")!)
            case .rebuildTable:
                (rows, try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM ZNOTE WHERE ZHEADING = 'note ' || Z_PK AND ZFOLDER = Z_PK % 100 + 1")!)
            }
        }
        guard expected == found else {
            throw CascadeBenchmarkError("\(found) of \(expected) notes were migrated as \(change.rawValue) asks")
        }
    }
}

import Foundation
import GRDB
import SQLiteStore

/// How the root of a data set is deleted.
public enum CascadeDeletion: String, Hashable, Sendable, CaseIterable {
    /// Through `SQLiteObjectStore`: `delete(root)` runs the delete rules (as sets in SQL), then
    /// `save()` writes every row deletion in one transaction.
    case store
    /// Plain SQL on plain tables declaring `REFERENCES … ON DELETE CASCADE`: one `DELETE` of
    /// the root, and SQLite's foreign-key actions do the rest.
    case foreignKeyCascade
    /// Plain SQL without foreign keys: one `DELETE … WHERE id IN (WITH RECURSIVE …)` naming
    /// everything reachable from the root. The baseline where foreign-key cascades cannot go:
    /// SQLite runs them as triggers, limited to 1,000 levels (SQLITE_MAX_TRIGGER_DEPTH).
    case recursiveSQL
}

/// One data set in one database file, ready to have its root deleted. Preparing is separate
/// from deleting so that a benchmark measures only `deleteRoot()`:
///
/// ```swift
/// let fixture = try CascadeFixture.prepare(.issueFanOut, for: .store, at: path)
/// try fixture.deleteRoot()          // measure this
/// assert(try fixture.remainingObjects() == 0)
/// ```
public struct CascadeFixture: Sendable {
    public let shape: CascadeShape
    public let deletion: CascadeDeletion
    public let path: String

    /// Writes `shape` to a new database at `path` (which must not exist), laid out for
    /// `deletion`: through the store's own API for `.store`, by bulk SQL into plain tables
    /// otherwise. Both hold the same objects and links.
    public static func prepare(_ shape: CascadeShape, for deletion: CascadeDeletion, at path: String) throws -> CascadeFixture {
        guard !FileManager.default.fileExists(atPath: path) else {
            throw CascadeBenchmarkError("'\(path)' already exists; prepare each data set in a new file")
        }
        switch deletion {
        case .store: try prepareStore(shape, at: path)
        case .foreignKeyCascade, .recursiveSQL: try preparePlainTables(shape, foreignKeys: deletion == .foreignKeyCascade, at: path)
        }
        return CascadeFixture(shape: shape, deletion: deletion, path: path)
    }

    /// Deletes the data set's root and commits; every other object goes with it.
    public func deleteRoot() throws {
        switch deletion {
        case .store:
            let store = try SQLiteObjectStore(path: path, model: try CascadeShape.model())
            defer { try? store.close() }
            try store.delete(try rootObject(in: store))
            try store.save()
        case .foreignKeyCascade:
            try withPlainDatabase(foreignKeys: true) { db in
                switch shape {
                case .fanOut: try db.execute(sql: "DELETE FROM root WHERE id = 1")
                case .chain: try db.execute(sql: "DELETE FROM node WHERE id = 1")
                }
            }
        case .recursiveSQL:
            try withPlainDatabase(foreignKeys: false) { db in
                switch shape {
                case .fanOut:
                    try db.execute(sql: "DELETE FROM child WHERE root = 1")
                    try db.execute(sql: "DELETE FROM root WHERE id = 1")
                case .chain:
                    try db.execute(sql: """
                        DELETE FROM node WHERE id IN (
                            WITH RECURSIVE reached(id) AS (
                                SELECT 1 UNION ALL SELECT node.id FROM node JOIN reached ON node.previous = reached.id)
                            SELECT id FROM reached)
                        """)
                }
            }
        }
    }

    /// How many objects of the data set are still in the file (0 after `deleteRoot()`).
    public func remainingObjects() throws -> Int {
        switch deletion {
        case .store:
            let store = try SQLiteObjectStore(path: path, model: try CascadeShape.model())
            defer { try? store.close() }
            return try store.count("Root") + store.count("Child") + store.count("Node")
        case .foreignKeyCascade, .recursiveSQL:
            let db = try DatabaseQueue(path: path)
            defer { try? db.close() }
            return try db.read { db in
                try Int.fetchOne(db, sql: "SELECT (SELECT COUNT(*) FROM root) + (SELECT COUNT(*) FROM child) + (SELECT COUNT(*) FROM node)")!
            }
        }
    }

    // MARK: Building the data

    private static func prepareStore(_ shape: CascadeShape, at path: String) throws {
        let store = try SQLiteObjectStore(path: path, model: try CascadeShape.model())
        defer { try? store.close() }
        switch shape {
        case .fanOut(let children):
            let root = try store.insert("Root")
            for index in 0..<children {
                let child = try store.insert("Child", values: ["index": .integer(Int64(index))])
                try store.link(child, "root", to: root)
            }
        case .chain(let length):
            var previous: ObjectID?
            for index in 0..<length {
                let node = try store.insert("Node", values: ["index": .integer(Int64(index))])
                if let previous { try store.link(previous, "next", to: node) }
                previous = node
            }
        }
        try store.save()
    }

    /// Plain tables, one row per object; a child (or the next node) points at its parent (or
    /// previous node), which is what a foreign key can cascade along.
    private static func preparePlainTables(_ shape: CascadeShape, foreignKeys: Bool, at path: String) throws {
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        let references = { (table: String) in foreignKeys ? " REFERENCES \(table)(id) ON DELETE CASCADE" : "" }
        try db.write { db in
            try db.execute(sql: """
                CREATE TABLE root (id INTEGER PRIMARY KEY);
                CREATE TABLE child (id INTEGER PRIMARY KEY, "index" INTEGER, root INTEGER\(references("root")));
                CREATE INDEX child_root ON child (root);
                CREATE TABLE node (id INTEGER PRIMARY KEY, "index" INTEGER, previous INTEGER\(references("node")));
                CREATE INDEX node_previous ON node (previous);
                """)
            switch shape {
            case .fanOut(let children):
                try db.execute(sql: "INSERT INTO root (id) VALUES (1)")
                let insert = try db.makeStatement(sql: "INSERT INTO child (id, \"index\", root) VALUES (?, ?, 1)")
                for index in 0..<children { try insert.execute(arguments: [index + 1, index]) }
            case .chain(let length):
                let insert = try db.makeStatement(sql: "INSERT INTO node (id, \"index\", previous) VALUES (?, ?, ?)")
                for index in 0..<length { try insert.execute(arguments: [index + 1, index, index == 0 ? nil : index]) }
            }
        }
    }

    private func rootObject(in store: SQLiteObjectStore) throws -> ObjectID {
        let found: [ObjectID] = switch shape {
        case .fanOut: try store.fetch("Root")
        case .chain: try store.fetch("Node", matching: ["index": .integer(0)])
        }
        guard let root = found.first else { throw CascadeBenchmarkError("'\(path)' holds no root; prepare the data set first") }
        return root
    }

    private func withPlainDatabase(foreignKeys: Bool, _ body: (Database) throws -> Void) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = foreignKeys
        let db = try DatabaseQueue(path: path, configuration: configuration)
        defer { try? db.close() }
        try db.write(body)
    }
}

public struct CascadeBenchmarkError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import GRDB

/// A private copy of a database file (and its `-wal`, where the data of a WAL-mode file may
/// still live), opened read-only.
///
/// Why a copy: even a read-only SQLite connection writes to a file it did not create — it makes
/// `-wal` and `-shm` files beside a WAL-mode database that has none, and records its read locks
/// in the `-shm` ("the -shm file … is used as shared memory by all connections",
/// https://www.sqlite.org/walformat.html). Opening with `immutable=1` would avoid that but
/// ignores the WAL, and so the data an app left there. Only a connection that never sees the
/// user's path leaves their files byte-identical. The copy is deleted when the snapshot goes.
final class StoreSnapshot {
    let directory: URL
    let queue: DatabaseQueue

    init(of path: String) throws(SQLiteStoreError) {
        let fileManager = FileManager.default
        directory = fileManager.temporaryDirectory.appendingPathComponent("momlint-snapshot-\(UUID().uuidString)")
        let copy = directory.appendingPathComponent("store.sqlite")
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            try fileManager.copyItem(atPath: path, toPath: copy.path)
            // A WAL file's committed data may still be in its -wal; a rollback-journal file
            // interrupted mid-write has a hot -journal, which SQLite rolls back on the copy.
            for suffix in ["-wal", "-journal"] where fileManager.fileExists(atPath: path + suffix) {
                try fileManager.copyItem(atPath: path + suffix, toPath: copy.path + suffix)
            }
            // The copies may be read-only (as the originals were); SQLite needs to lock them.
            for file in [copy.path, copy.path + "-wal", copy.path + "-journal"] where fileManager.fileExists(atPath: file) {
                try fileManager.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
            }
        } catch {
            try? fileManager.removeItem(at: directory)
            throw SQLiteStoreError(.database, "'\(path)' cannot be copied for reading: \(error.localizedDescription)")
        }
        var configuration = Configuration()
        // Read-only, except that rolling back a hot journal needs to write (to the copy).
        configuration.readonly = !fileManager.fileExists(atPath: copy.path + "-journal")
        do {
            queue = try DatabaseQueue(path: copy.path, configuration: configuration)
            // Opening is lazy in SQLite: the first read finds out whether this is a database.
            _ = try queue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
        } catch {
            try? fileManager.removeItem(at: directory)
            throw SQLiteStoreError.describing(error, path: path)
        }
    }

    deinit {
        try? queue.close()
        try? FileManager.default.removeItem(at: directory)
    }
}

extension SQLiteStoreError {
    /// An SQLite failure on the file at `path`, as one line saying what the file is.
    static func describing(_ error: any Error, path: String) -> SQLiteStoreError {
        if let error = error as? SQLiteStoreError { return error }
        guard let error = error as? DatabaseError else {
            return SQLiteStoreError(.database, "'\(path)': \(error)")
        }
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return SQLiteStoreError(.incompatibleFile, "'\(path)' is not an SQLite database (or is an encrypted one)")
        case .SQLITE_CORRUPT:
            return SQLiteStoreError(.incompatibleFile, "'\(path)' is a damaged SQLite database (\(error.message ?? "malformed"))")
        default:
            return SQLiteStoreError(.database, "'\(path)': \(error.message ?? "\(error.resultCode)")")
        }
    }
}

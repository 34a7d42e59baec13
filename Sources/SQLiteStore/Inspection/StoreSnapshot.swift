import Foundation
import GRDB

/// A read-only view of a database file that cannot change the file, its `-wal` or its `-shm`.
///
/// Even a read-only SQLite connection writes beside a file it did not create: it makes `-wal`
/// and `-shm` files next to a WAL-mode database that has none, and records its read locks in
/// the `-shm` ("the -shm file … is used as shared memory by all connections",
/// https://www.sqlite.org/walformat.html). So:
///
/// - when nothing but the main file holds data (no `-wal` with frames, no `-journal`), the file
///   is opened in place as immutable: "SQLite assumes that the database file cannot be changed
///   … [it] does not attempt to acquire any locks or create any journal or WAL files"
///   (https://www.sqlite.org/uri.html#uriimmutable) — no copy, however large the file;
/// - otherwise, or when this SQLite does not take URI file names, the file with its `-wal`
///   (where an app may have left its data, which an immutable open would ignore) and any hot
///   `-journal` is copied into a private folder, deleted with the snapshot, and the copy read.
final class StoreSnapshot {
    /// The private folder of the copy; nil when the file is read in place.
    let directory: URL?
    let queue: DatabaseQueue

    init(of path: String) throws(SQLiteStoreError) {
        let fileManager = FileManager.default
        if Self.mainFileHoldsEverything(path), Self.sqliteTakesURIFileNames {
            directory = nil
            var configuration = Configuration()
            configuration.readonly = true
            do {
                queue = try DatabaseQueue(path: Self.immutableURI(path), configuration: configuration)
                try Self.probe(queue)
            } catch {
                throw SQLiteStoreError.describing(error, path: path)
            }
            return
        }
        let directory = fileManager.temporaryDirectory.appendingPathComponent("momlint-snapshot-\(UUID().uuidString)")
        self.directory = directory
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
            try Self.probe(queue)
        } catch {
            try? fileManager.removeItem(at: directory)
            throw SQLiteStoreError.describing(error, path: path)
        }
    }

    /// True when the file has no `-wal` holding frames and no `-journal`: a connection opened
    /// on it in place then reads the main file alone, and neither checkpoints nor rolls back
    /// anything into it.
    static func mainFileHoldsEverything(_ path: String) -> Bool {
        let fileManager = FileManager.default
        let walSize = (try? fileManager.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        return walSize == 0 && !fileManager.fileExists(atPath: path + "-journal")
    }

    deinit {
        try? queue.close()
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Opening is lazy in SQLite: the first read finds out whether this is a database.
    private static func probe(_ queue: DatabaseQueue) throws {
        _ = try queue.inDatabase { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_master") }
    }

    /// `file:<path>?immutable=1`, with the characters a URI path gives meaning to escaped
    /// (https://www.sqlite.org/uri.html: "%HH" escapes; "?" and "#" end the path).
    static func immutableURI(_ path: String) -> String {
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        var escaped = ""
        for character in absolute {
            switch character {
            case "%": escaped += "%25"
            case "?": escaped += "%3F"
            case "#": escaped += "%23"
            default: escaped.append(character)
            }
        }
        return "file:" + escaped + "?immutable=1"
    }

    /// GRDB opens files without `SQLITE_OPEN_URI`, so a URI file name works only when SQLite
    /// was built to accept them (`SQLITE_USE_URI`, as Debian's and Ubuntu's libsqlite3 are);
    /// elsewhere "file:…" would name a new file, so the copy is used instead.
    static let sqliteTakesURIFileNames: Bool = {
        guard let queue = try? DatabaseQueue() else { return false }
        return (try? queue.inDatabase { db in
            try Bool.fetchOne(db, sql: "SELECT sqlite_compileoption_used('USE_URI')")
        }) ?? false
    }()
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

import CSQLiteDefences
import DataModel
import Foundation
import GRDB
import SafeFiles

/// A read-only view of a database file someone else made, which cannot change the file, its
/// `-wal`, its `-shm`, its `-journal` or anything they point at, and cannot hang or exhaust
/// memory (`docs/security.md`, "Stores").
///
/// Even a read-only SQLite connection writes beside a file it did not create: it makes `-wal`
/// and `-shm` files next to a WAL-mode database that has none, records its read locks in the
/// `-shm` ("the -shm file … is used as shared memory by all connections",
/// https://www.sqlite.org/walformat.html), rolls back a hot `-journal` into the database and
/// deletes the super-journal the journal names (`StoreSidecarFiles`). So:
///
/// - a hot `-journal` is refused, never replayed; a `-journal` or `-wal` that is not a regular
///   file is refused, never opened by SQLite;
/// - when nothing but the main file holds data (no `-wal` with committed frames), the file is
///   opened in place as immutable: "SQLite assumes that the database file cannot be changed …
///   [it] does not attempt to acquire any locks or create any journal or WAL files"
///   (https://www.sqlite.org/uri.html#uriimmutable) — no copy, however large the file;
/// - otherwise (or when this SQLite does not take URI file names) the bytes of the file and of
///   its `-wal` — never a link, never the `-journal` — are copied, within size limits, into a
///   private folder (mode 0700, files 0600, created new so nothing existing is written), the
///   copy is opened read-only, and the folder is removed as soon as SQLite holds the files
///   open, so nothing is left behind even if the process is killed; a signal arriving before
///   then removes it too (`momlint_remove_on_signal`).
///
/// Every connection gets SQLite's defences (`SQLiteDefences`): defensive mode, an untrusted
/// schema, no views or triggers, limits on value and statement lengths, and a time budget for
/// the whole read.
final class StoreSnapshot {
    let queue: DatabaseQueue
    let path: String
    let limits: StoreReadLimits
    private let defences: SQLiteDefences

    init(of path: String, header: SQLiteFileHeader, limits: StoreReadLimits = StoreReadLimits()) throws(SQLiteStoreError) {
        self.path = path
        self.limits = limits
        if case .hot(let bytes) = try StoreSidecarFiles.journal(besides: path) {
            throw StoreSidecarFiles.unfinishedTransaction(path, journalBytes: bytes)
        }
        var walFile: (wal: StoreSidecarFiles.WAL, file: RegularFileReader.OpenedFile)?
        if header.isWAL, let found = try StoreSidecarFiles.wal(besides: path, limits: limits) {
            if found.0.committedFrames > 0 {
                walFile = found
            } else {
                close(found.1.descriptor)
            }
        }
        defer { if let walFile { close(walFile.file.descriptor) } }
        guard header.pageSize > 0 || walFile != nil else {
            throw SQLiteStoreError(.incompatibleFile, "\(StoreSidecarFiles.quoted(path)) is empty (0 bytes) and has no -wal holding data; there is nothing to read")
        }
        defences = try SQLiteDefences(limits: limits)
        let defences = defences
        var configuration = Configuration()
        configuration.readonly = true
        configuration.prepareDatabase { db in try defences.apply(to: db) }
        if walFile == nil, Self.sqliteTakesURIFileNames {
            do {
                queue = try DatabaseQueue(path: Self.immutableURI(path), configuration: configuration)
                try Self.probe(queue)
            } catch {
                throw defences.describing(error, path: path)
            }
            return
        }
        let copy = try PrivateStoreCopy(of: path, wal: walFile, limits: limits)
        do {
            queue = try DatabaseQueue(path: copy.storePath, configuration: configuration)
            try Self.probe(queue)
        } catch {
            copy.remove()
            throw defences.describing(error, path: path)
        }
        // SQLite now holds the copy, its -wal and its -shm open: their names are no longer
        // needed (https://www.sqlite.org/walformat.html: a reader keeps the -wal and the
        // shared-memory file open for the life of the connection).
        copy.remove()
    }

    deinit {
        try? queue.close()
    }

    /// Gives the next read the whole time limit again (`SQLiteDefences.restartBudget`).
    func restartBudget() {
        defences.restartBudget()
    }

    /// An error while reading, as one line about the file.
    func describing(_ error: any Error) -> SQLiteStoreError {
        defences.describing(error, path: path)
    }

    /// Opening is lazy in SQLite: the first read finds out whether this is a database. It also
    /// opens the `-wal` and creates the `-shm` of a private copy.
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

/// The bytes of a store and its `-wal`, copied into a folder of momlint's own (`PrivateFolder`).
private struct PrivateStoreCopy {
    let folder: PrivateFolder
    let storePath: String
    private var signalRegistrations: [Int32] = []

    init(of path: String, wal: (wal: StoreSidecarFiles.WAL, file: RegularFileReader.OpenedFile)?,
         limits: StoreReadLimits) throws(SQLiteStoreError) {
        let store: RegularFileReader.OpenedFile
        do {
            store = try RegularFileReader.open(atPath: path)
        } catch {
            throw SQLiteStoreError(.incompatibleFile, "\(StoreSidecarFiles.quoted(path)) cannot be read: \(error.reason)")
        }
        defer { close(store.descriptor) }
        guard store.size <= limits.maximumCopiedStoreBytes else {
            throw SQLiteStoreError(.incompatibleFile,
                                   "\(StoreSidecarFiles.quoted(path)) is \(store.size) bytes, over the limit of \(limits.maximumCopiedStoreBytes) for a store momlint copies to read with its -wal: open the store in the app so its -wal is checkpointed, then read it again")
        }
        let temporary = NSTemporaryDirectory()
        Self.removeCopiesOfEndedProcesses(in: temporary)
        do {
            folder = try PrivateFolder(in: temporary, prefix: "\(Self.folderPrefix)\(getpid())-")
        } catch {
            throw SQLiteStoreError(.database, "cannot make a private folder to read \(StoreSidecarFiles.quoted(path)) in: \(error.reason)")
        }
        storePath = folder.path(of: Self.storeName)
        signalRegistrations.append(momlint_remove_on_signal(folder.path, 1))
        for file in Self.fileNames {
            signalRegistrations.append(momlint_remove_on_signal(folder.path(of: file), 0))
        }
        do {
            try copy(store.descriptor, bytes: store.size, to: Self.storeName, naming: path)
            if let wal {
                // Only the frames SQLite would read: up to the last commit frame.
                let walBytes = 32 + wal.wal.committedFrames * (24 + wal.wal.pageSize)
                try copy(wal.file.descriptor, bytes: walBytes, to: Self.storeName + "-wal", naming: path + "-wal")
            }
        } catch {
            remove()
            throw error
        }
    }

    static let folderPrefix = "momlint-store-"
    static let storeName = "store.sqlite"
    static let fileNames = StoreSidecarFiles.databaseFiles(storeName)

    /// A process killed with SIGKILL while it copied (before SQLite held the copy, when its
    /// names are removed) leaves its folder behind: the next copy removes every folder of
    /// this user named for a process that no longer exists, and only the files a copy makes
    /// in it (a folder holding anything else is left alone).
    static func removeCopiesOfEndedProcesses(in temporary: String) {
        PrivateFolder.removeLeftovers(in: temporary, files: fileNames) { name in
            guard name.hasPrefix(folderPrefix) else { return false }
            let rest = name.dropFirst(folderPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = Int32(rest[..<dash]), pid > 0 else { return false }
            return kill(pid, 0) == -1 && errno == ESRCH
        }
    }

    /// Removes the copy and its folder (only what momlint made there).
    func remove() {
        folder.remove(withFiles: Self.fileNames)
        for registration in signalRegistrations { momlint_forget_on_signal(registration) }
    }

    /// Copies `bytes` bytes from an open descriptor to a new file of mode 0600 in the folder
    /// (`PrivateFolder.createFile`: nothing that exists is ever written, a link never followed).
    private func copy(_ source: Int32, bytes: Int, to file: String, naming original: String) throws(SQLiteStoreError) {
        let destination = folder.path(of: file)
        let target: Int32
        do {
            target = try folder.createFile(named: file)
        } catch {
            throw SQLiteStoreError(.database, "cannot copy \(StoreSidecarFiles.quoted(original)) to read it: \(error.reason)")
        }
        defer { close(target) }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset = 0
        while offset < bytes {
            let wanted = min(buffer.count, bytes - offset)
            let got = buffer.withUnsafeMutableBytes { pread(source, $0.baseAddress, wanted, off_t(offset)) }
            if got < 0 && errno == EINTR { continue }
            guard got > 0 else {
                let reason = got == 0 ? "it became shorter while being read" : FileAccessError(path: original, problem: .system(errno)).reason
                throw SQLiteStoreError(.incompatibleFile, "\(StoreSidecarFiles.quoted(original)) cannot be copied to read it: \(reason)")
            }
            var written = 0
            while written < got {
                let count = buffer.withUnsafeBytes { write(target, $0.baseAddress! + written, got - written) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else {
                    throw SQLiteStoreError(.database, "cannot copy \(StoreSidecarFiles.quoted(original)) to read it: \(FileAccessError(path: destination, problem: .system(errno)).reason)")
                }
                written += count
            }
            offset += got
        }
    }
}

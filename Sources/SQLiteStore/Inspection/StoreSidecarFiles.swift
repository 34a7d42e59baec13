#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DataModel
import SafeFiles

/// The files SQLite keeps beside a database, judged with plain file I/O before SQLite is let
/// near them: what a reader must know about a store's `-journal` and `-wal`, and what must
/// never be handed to SQLite.
///
/// SQLite acts on these files when it opens a database the ordinary way, even read-only: a *hot*
/// `-journal` is rolled back into the database ("a hot journal is a rollback journal that needs
/// to be played back in order to restore the database to a sane state", and the rollback is
/// done by the first process that reads, https://www.sqlite.org/fileformat.html#the_rollback_journal
/// and https://www.sqlite.org/atomiccommit.html#_hot_rollback_journals), and a journal that names
/// a *super-journal* has that file deleted once its transaction is resolved ("the super-journal
/// is deleted", https://www.sqlite.org/atomiccommit.html#_multi_file_commit). The name is
/// whatever the journal says, so a journal someone else made can delete any file the user
/// may delete. momlint never lets SQLite see a `-journal`: it reads the database as immutable
/// (which "does not attempt to … create any journal" and reads none) or a private copy of
/// the database and its `-wal` only, and refuses a store whose `-journal` is hot.
enum StoreSidecarFiles {
    /// What the `-journal` beside a database says.
    enum Journal: Equatable {
        /// None, an empty one (`journal_mode=TRUNCATE` leaves it so), or one whose header is
        /// zeroed (`journal_mode=PERSIST`): no transaction is unfinished.
        case none
        /// A journal SQLite would play back.
        case hot(bytes: Int)
    }

    /// A database's file and those SQLite makes beside it (`-wal`, `-shm`, `-journal`), by name.
    static func databaseFiles(_ database: String) -> [String] {
        ["", "-wal", "-shm", "-journal"].map { database + $0 }
    }

    /// Looks at `path-journal` without following it into a FIFO or a device: a journal that is
    /// not a regular file is refused (SQLite would open it), and a hot one is reported.
    static func journal(besides path: String) throws(SQLiteStoreError) -> Journal {
        guard let file = try openSidecar(path + "-journal", as: "rollback journal", spelled: "journal") else { return .none }
        defer { close(file.descriptor) }
        guard file.size > 0 else { return .none }
        // SQLite's own test: a journal whose first byte is zero is not hot (pager.c, hasHotJournal).
        var first: UInt8 = 0
        guard pread(file.descriptor, &first, 1, 0) == 1 else { return .none }
        return first == 0 ? .none : .hot(bytes: file.size)
    }

    /// The message for a store whose `-journal` is hot.
    static func unfinishedTransaction(_ path: String, journalBytes: Int) -> SQLiteStoreError {
        SQLiteStoreError(.incompatibleFile,
                         "\(quoted(path)) has an unfinished transaction (a hot rollback journal beside it, \(quoted(path + "-journal")), \(journalBytes) bytes): "
                         + "its pages are half-written, and finishing the transaction would replay the journal, which may also name a file to delete; "
                         + "momlint never replays one. Open the store in the app (or with sqlite3) first, then read it again")
    }

    /// A `-wal` file's header and how many of its frames SQLite would read: the frames up to
    /// the last commit frame whose salts match the header and whose cumulative checksum holds
    /// (https://www.sqlite.org/fileformat.html#the_write_ahead_log).
    struct WAL {
        var bytes: Int
        var pageSize: Int
        var committedFrames: Int
    }

    /// Opens and checks `path-wal`; nil when there is none or it is empty. Refuses a `-wal` that
    /// is not a regular file, is larger than the limit, or is damaged: a damaged
    /// header, or a frame of the current generation (its salts match) whose checksum fails.
    /// SQLite ignores such a `-wal` (or everything from the damaged frame on) without a word,
    /// so the store would read as it was before the changes the `-wal` holds.
    static func wal(besides path: String, limits: StoreReadLimits) throws(SQLiteStoreError) -> (WAL, RegularFileReader.OpenedFile)? {
        let walPath = path + "-wal"
        guard let file = try openSidecar(walPath, as: "write-ahead log", spelled: "-wal") else { return nil }
        do throws(SQLiteStoreError) {
            guard file.size > 0 else {
                close(file.descriptor)
                return nil
            }
            guard file.size <= limits.maximumWALBytes else {
                throw SQLiteStoreError(.incompatibleFile,
                                       "\(quoted(walPath)) is \(file.size) bytes, over the limit of \(limits.maximumWALBytes) for a -wal momlint copies to read: open the store in the app (or run sqlite3 on a copy with 'PRAGMA wal_checkpoint') so its changes move into the store, then read it again")
            }
            let wal = try check(descriptor: file.descriptor, size: file.size, path: walPath)
            return (wal, file)
        } catch {
            close(file.descriptor)
            throw error
        }
    }

    /// Opens the file SQLite keeps beside a store at `sidecarPath` (its `role`, which a store
    /// `spells` so, in messages), looked at first without following it; nil when there is none.
    /// Anything but a regular file is refused: SQLite would open it.
    private static func openSidecar(_ sidecarPath: String, as role: String,
                                    spelled name: String) throws(SQLiteStoreError) -> RegularFileReader.OpenedFile? {
        var status = stat()
        guard lstat(sidecarPath, &status) == 0 else {
            if errno == ENOENT { return nil }
            throw SQLiteStoreError(.incompatibleFile, "\(quoted(sidecarPath)) cannot be looked at: \(FileAccessError(path: sidecarPath, problem: .system(errno)).reason)")
        }
        do {
            return try RegularFileReader.open(atPath: sidecarPath)
        } catch {
            throw SQLiteStoreError(.incompatibleFile,
                                   "\(quoted(sidecarPath)) cannot be the store's \(role): \(error.reason); a store's \(name) is a regular file, so move this away before reading the store")
        }
    }

    private static func check(descriptor: Int32, size: Int, path: String) throws(SQLiteStoreError) -> WAL {
        func damaged(_ what: String) -> SQLiteStoreError {
            SQLiteStoreError(.incompatibleFile,
                             "\(quoted(path)) is damaged (\(what)): SQLite would ignore it without a word and show the store as it was before the changes it holds; "
                             + "restore the -wal from where the store came from, or move it away to read the store without those changes")
        }
        var header = [UInt8](repeating: 0, count: 32)
        guard size >= 32, readFully(descriptor, &header, at: 0) else { throw damaged("shorter than its 32-byte header") }
        let magic = bigEndian32(header, 0)
        guard magic == 0x377f0682 || magic == 0x377f0683 else { throw damaged("no write-ahead-log magic number in its header") }
        let bigEndianChecksums = magic & 1 == 1
        let pageSize = Int(bigEndian32(header, 8))
        guard bigEndian32(header, 4) == 3_007_000, pageSize >= 512, pageSize <= 65_536, pageSize & (pageSize - 1) == 0 else {
            throw damaged("an unknown version or page size in its header")
        }
        var sums = checksum(header[0..<24], bigEndian: bigEndianChecksums, from: (0, 0))
        guard sums.0 == bigEndian32(header, 24), sums.1 == bigEndian32(header, 28) else { throw damaged("its header checksum is wrong") }
        let salts = (bigEndian32(header, 16), bigEndian32(header, 20))
        let frameBytes = 24 + pageSize
        var frame = [UInt8](repeating: 0, count: frameBytes)
        var committed = 0
        var index = 0
        while 32 + (index + 1) * frameBytes <= size {
            guard readFully(descriptor, &frame, at: 32 + index * frameBytes) else { throw damaged("it cannot be read") }
            // A frame of an earlier generation (other salts) ends the log: SQLite reuses a -wal
            // from its start after a checkpoint, and stale frames after the new ones are normal.
            guard bigEndian32(frame, 8) == salts.0, bigEndian32(frame, 12) == salts.1 else { break }
            sums = checksum(frame[0..<8], bigEndian: bigEndianChecksums, from: sums)
            sums = checksum(frame[24...], bigEndian: bigEndianChecksums, from: sums)
            guard sums.0 == bigEndian32(frame, 16), sums.1 == bigEndian32(frame, 20) else {
                throw damaged("frame \(index + 1) of \((size - 32) / frameBytes) fails its checksum")
            }
            index += 1
            if bigEndian32(frame, 4) != 0 { committed = index }
        }
        return WAL(bytes: size, pageSize: pageSize, committedFrames: committed)
    }

    /// SQLite's WAL checksum over 32-bit words read in the log's byte order.
    private static func checksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, from start: (UInt32, UInt32)) -> (UInt32, UInt32) {
        var (s0, s1) = start
        var offset = bytes.startIndex
        while offset + 8 <= bytes.endIndex {
            let x0 = word(bytes, offset, bigEndian), x1 = word(bytes, offset + 4, bigEndian)
            s0 = s0 &+ x0 &+ s1
            s1 = s1 &+ x1 &+ s0
            offset += 8
        }
        return (s0, s1)
    }

    private static func word(_ bytes: ArraySlice<UInt8>, _ offset: Int, _ bigEndian: Bool) -> UInt32 {
        let b = (UInt32(bytes[offset]), UInt32(bytes[offset + 1]), UInt32(bytes[offset + 2]), UInt32(bytes[offset + 3]))
        return bigEndian ? b.0 << 24 | b.1 << 16 | b.2 << 8 | b.3 : b.3 << 24 | b.2 << 16 | b.1 << 8 | b.0
    }

    private static func bigEndian32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
        word(bytes[...], offset, true)
    }

    static func readFully(_ descriptor: Int32, _ buffer: inout [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < buffer.count {
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset + done)) }
            if got > 0 {
                done += got
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                return false
            }
        }
        return true
    }

    /// A path in a message: escaped, cut when long, in quotes.
    static func quoted(_ path: String) -> String {
        "'\(PrintableText.bounded(path, limit: 1_000))'"
    }
}

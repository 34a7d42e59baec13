#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DataModel
import SafeFiles

/// The first 100 bytes of an SQLite database file, read with plain file I/O so that a file can
/// be recognised before SQLite opens it (opening can create `-wal`/`-shm` files and write to
/// them, which must not happen to a file momlint did not create).
///
/// The file is opened as `RegularFileReader` opens one: without blocking and refusing a FIFO,
/// a device, a socket or a folder before a byte is read, so `/dev/zero`, `/dev/stdin` or a
/// FIFO named as a store is one clear line, never a hang.
///
/// Layout: https://www.sqlite.org/fileformat.html#the_database_header — "Every valid SQLite
/// database file begins with the following 16 bytes (in hex): 53 51 4c 69 74 65 20 66 6f 72 6d
/// 61 74 20 33 00", the page size at offset 16 ("the value 1 representing a page size of
/// 65536"), the write/read versions at 18/19 ("1 for legacy; 2 for WAL"), and the "in-header
/// database size" at 28, valid when the change counter at 24 equals the version-valid-for
/// number at 92.
struct SQLiteFileHeader: Sendable {
    static let magic = Array("SQLite format 3\u{0}".utf8)

    /// 0 for an empty main file whose data is all in its `-wal`.
    var pageSize: Int
    /// True when the file is in WAL mode (read and write versions 2).
    var isWAL: Bool
    /// Pages the header says the file holds, when that figure is valid.
    var pageCount: Int?

    /// What a path holds, judged from its size and first 100 bytes only.
    enum Inspection: Sendable {
        /// No file: momlint may create a store there.
        case absent
        /// An empty file with no `-wal` beside it: momlint may create a store there.
        case empty
        case sqlite(SQLiteFileHeader)
    }

    /// Reads the header at `path`; throws a one-line `incompatibleFile` error for a path that is
    /// not a regular file (a FIFO, a device, a folder, a link loop), a file that is not an SQLite
    /// database (or is encrypted, which looks the same from outside), or one shorter than its
    /// header says.
    static func inspect(_ path: String) throws(SQLiteStoreError) -> Inspection {
        let shown = StoreSidecarFiles.quoted(path)
        let file: RegularFileReader.OpenedFile
        do {
            file = try RegularFileReader.open(atPath: path)
        } catch {
            switch error.problem {
            case .system(ENOENT) where !error.reason.contains("symbolic link"): return .absent
            case .notARegularFile(.directory):
                throw SQLiteStoreError(.incompatibleFile, "\(shown) is a folder, not an SQLite database")
            case .notARegularFile(let kind):
                throw SQLiteStoreError(.incompatibleFile, "\(shown) is not an SQLite database: it is not a regular file (\(kind.description)); name the store's file itself")
            default:
                throw SQLiteStoreError(.incompatibleFile, "\(shown) cannot be read: \(error.reason)")
            }
        }
        defer { close(file.descriptor) }
        var bytes = [UInt8](repeating: 0, count: min(100, file.size))
        guard bytes.isEmpty || StoreSidecarFiles.readFully(file.descriptor, &bytes, at: 0) else {
            throw SQLiteStoreError(.incompatibleFile, "\(shown) cannot be read: \(FileAccessError(path: path, problem: .system(errno)).reason)")
        }
        let size = file.size
        if size == 0 {
            // A WAL database whose first pages were never checkpointed can have an empty main
            // file and all its content in the -wal: that is not an empty file to create in.
            var status = stat()
            let walSize = lstat(path + "-wal", &status) == 0 ? Int(status.st_size) : 0
            return walSize > 0 ? .sqlite(SQLiteFileHeader(pageSize: 0, isWAL: true, pageCount: nil)) : .empty
        }
        guard bytes.count == 100, Array(bytes[0..<16]) == magic else {
            if bytes.count < 100, magic.starts(with: bytes) || bytes.starts(with: magic) {
                throw SQLiteStoreError(.incompatibleFile, "\(shown) is a truncated SQLite database (\(size) bytes, shorter than its 100-byte header)")
            }
            throw SQLiteStoreError(.incompatibleFile,
                                   "\(shown) is not an SQLite database (no 'SQLite format 3' header; an encrypted database looks like this too)")
        }
        func bigEndian(_ offset: Int, _ count: Int) -> Int {
            bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = bigEndian(16, 2)
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw SQLiteStoreError(.incompatibleFile, "\(shown) is a damaged SQLite database (page size \(rawPageSize) in its header)")
        }
        let header = SQLiteFileHeader(
            pageSize: pageSize, isWAL: bytes[18] == 2 && bytes[19] == 2,
            pageCount: bigEndian(24, 4) == bigEndian(92, 4) && bigEndian(28, 4) > 0 ? bigEndian(28, 4) : nil)
        if let pages = header.pageCount, size < pages * pageSize {
            throw SQLiteStoreError(.incompatibleFile,
                                   "\(shown) is a truncated SQLite database (\(size) bytes; its header says \(pages * pageSize))")
        }
        return .sqlite(header)
    }
}

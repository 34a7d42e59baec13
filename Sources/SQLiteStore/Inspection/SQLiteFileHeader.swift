import Foundation

/// The first 100 bytes of an SQLite database file, read with plain file I/O so that a file can
/// be recognised before SQLite opens it (opening can create `-wal`/`-shm` files and write to
/// them, which must not happen to a file momlint did not create).
///
/// Layout: https://www.sqlite.org/fileformat.html#the_database_header — "Every valid SQLite
/// database file begins with the following 16 bytes (in hex): 53 51 4c 69 74 65 20 66 6f 72 6d
/// 61 74 20 33 00", the page size at offset 16 ("the value 1 representing a page size of
/// 65536"), the write/read versions at 18/19 ("1 for legacy; 2 for WAL"), and the "in-header
/// database size" at 28, valid when the change counter at 24 equals the version-valid-for
/// number at 92.
struct SQLiteFileHeader: Sendable {
    static let magic = Array("SQLite format 3\u{0}".utf8)

    var pageSize: Int
    /// True when the file is in WAL mode (read and write versions 2).
    var isWAL: Bool
    /// Pages the header says the file holds, when that figure is valid.
    var pageCount: Int?

    /// What a path holds, judged from its size and first 100 bytes only.
    enum Inspection: Sendable {
        /// No file, or an empty one: momlint may create a store there.
        case absentOrEmpty
        case sqlite(SQLiteFileHeader)
    }

    /// Reads the header at `path`; throws a one-line `incompatibleFile` error for a file that
    /// is not an SQLite database (or is encrypted, which looks the same from outside) or is
    /// shorter than its header says.
    static func inspect(_ path: String) throws(SQLiteStoreError) -> Inspection {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { return .absentOrEmpty }
        if isDirectory.boolValue {
            throw SQLiteStoreError(.incompatibleFile, "'\(path)' is a directory, not an SQLite database")
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw SQLiteStoreError(.incompatibleFile, "'\(path)' cannot be read")
        }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: 100)) ?? Data())
        let size = (try? handle.seekToEnd()).map(Int.init) ?? bytes.count
        if size == 0 {
            // A WAL database whose first pages were never checkpointed can have an empty main
            // file and all its content in the -wal: that is not an empty file to create in.
            let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
            return walSize > 0 ? .sqlite(SQLiteFileHeader(pageSize: 0, isWAL: true, pageCount: nil)) : .absentOrEmpty
        }
        guard bytes.count == 100, Array(bytes[0..<16]) == magic else {
            if bytes.count < 100, magic.starts(with: bytes) || bytes.starts(with: magic) {
                throw SQLiteStoreError(.incompatibleFile, "'\(path)' is a truncated SQLite database (\(size) bytes, shorter than its 100-byte header)")
            }
            throw SQLiteStoreError(.incompatibleFile,
                                   "'\(path)' is not an SQLite database (no 'SQLite format 3' header; an encrypted database looks like this too)")
        }
        func bigEndian(_ offset: Int, _ count: Int) -> Int {
            bytes[offset..<(offset + count)].reduce(0) { $0 << 8 | Int($1) }
        }
        let rawPageSize = bigEndian(16, 2)
        let pageSize = rawPageSize == 1 ? 65536 : rawPageSize
        guard pageSize >= 512, pageSize & (pageSize - 1) == 0 else {
            throw SQLiteStoreError(.incompatibleFile, "'\(path)' is a damaged SQLite database (page size \(rawPageSize) in its header)")
        }
        let header = SQLiteFileHeader(
            pageSize: pageSize, isWAL: bytes[18] == 2 && bytes[19] == 2,
            pageCount: bigEndian(24, 4) == bigEndian(92, 4) && bigEndian(28, 4) > 0 ? bigEndian(28, 4) : nil)
        if let pages = header.pageCount, size < pages * pageSize {
            throw SQLiteStoreError(.incompatibleFile,
                                   "'\(path)' is a truncated SQLite database (\(size) bytes; its header says \(pages * pageSize))")
        }
        return .sqlite(header)
    }
}

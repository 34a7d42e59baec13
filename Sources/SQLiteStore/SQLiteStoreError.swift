import DataModel
import GRDB

/// Why the store could not do what was asked. A save that fails validation or a uniqueness
/// constraint is not one of these: it throws `SaveFailedError`, which carries Core Data's codes.
public struct SQLiteStoreError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The model cannot be given an SQLite store (an inheritance cycle, a constraint on a
        /// to-many, a transient relationship, …).
        case unsupportedModel
        /// The file is not an SQLite database (or is encrypted, truncated or damaged), is not a
        /// store, was written for another model, or is a store Core Data wrote that the caller
        /// did not ask to write to.
        case incompatibleFile
        /// A row of the file holds a value its column cannot mean: a key or entity number that
        /// is text, a fraction, or missing. The message names the table, the row and the column.
        case unreadableValue
        /// The object was never inserted, has been deleted, or was discarded by a reset.
        case noSuchObject
        /// The entity or property does not exist, or is the wrong kind.
        case noSuchProperty
        /// The request cannot be performed (an abstract entity, a value of the wrong type, a
        /// destination of the wrong entity).
        case invalidRequest
        /// SQLite itself failed (I/O, a full disk, a locked file).
        case database
    }

    public var kind: Kind
    /// One lowercase line saying what went wrong and, where it helps, what to do.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

extension SQLiteStoreError {
    /// A read of a path where there is no file, or an empty one.
    static func nothingToRead(at path: String) -> SQLiteStoreError {
        let shown = StoreSidecarFiles.quoted(path)
        if case .empty? = try? SQLiteFileHeader.inspect(path) {
            return SQLiteStoreError(.incompatibleFile, "\(shown) is empty (0 bytes); there is nothing to read")
        }
        return SQLiteStoreError(.incompatibleFile, "\(shown) does not exist; there is nothing to read")
    }
}

extension SQLiteStoreError {
    /// An SQLite failure on the file at `path`, as one line saying what the file is, in words
    /// (not "disk I/O error" or a result code).
    static func describing(_ error: any Error, path: String) -> SQLiteStoreError {
        if let error = error as? SQLiteStoreError { return error }
        let shown = StoreSidecarFiles.quoted(path)
        guard let error = error as? DatabaseError else {
            return SQLiteStoreError(.database, "\(shown): \(PrintableText.bounded("\(error)"))")
        }
        let detail = PrintableText.bounded(error.message ?? "\(error.resultCode)")
        switch error.resultCode {
        case .SQLITE_NOTADB:
            return SQLiteStoreError(.incompatibleFile, "\(shown) is not an SQLite database (or is an encrypted one)")
        case .SQLITE_CORRUPT:
            return SQLiteStoreError(.incompatibleFile, "\(shown) is a damaged SQLite database (\(detail))")
        case .SQLITE_IOERR:
            return SQLiteStoreError(.incompatibleFile,
                                    "\(shown) could not be read (SQLite: \(detail)): the file is damaged or shorter than its pages say, or the disk failed")
        case .SQLITE_CANTOPEN:
            return SQLiteStoreError(.incompatibleFile, "\(shown) cannot be opened by SQLite (\(detail))")
        case .SQLITE_NOMEM:
            return SQLiteStoreError(.database, "\(shown) could not be read: SQLite ran out of memory")
        default:
            return SQLiteStoreError(.database, "\(shown): \(detail)")
        }
    }
}

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

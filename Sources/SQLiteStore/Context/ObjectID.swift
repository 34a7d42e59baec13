/// The identity of an object in one store: its hierarchy's table and its `Z_PK`.
///
/// Core Data identifies a row by `Z_ENT` and `Z_PK`; here primary keys are unique across a
/// whole hierarchy table, so the table and the key suffice, and an ID does not change when the
/// object's exact entity is not yet known. Keys are handed out at insert and kept at save, so
/// an ID stays valid across saves and reopens — except for an object that was never saved:
/// after a reset or reopen its key may be given to a new object.
public struct ObjectID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Index of the hierarchy's table in the store's schema.
    let table: Int
    /// The row's `Z_PK`.
    public let primaryKey: Int64

    public static func < (lhs: ObjectID, rhs: ObjectID) -> Bool {
        (lhs.table, lhs.primaryKey) < (rhs.table, rhs.primaryKey)
    }

    public var description: String { "\(table)/\(primaryKey)" }
}

import DataModel
import Foundation
import GRDB

/// Whole numbers — primary keys, foreign keys, entity numbers — read from a file momlint may
/// not have written.
///
/// GRDB's typed reads do not fit such a file. A subscript such as `row[1] as Int` "crashes with
/// a fatal error" when the value cannot be converted (GRDB's `Row` documentation), so a
/// foreign key holding `'abc'` would stop the process; `Int64.fromDatabaseValue` converts a
/// REAL "after rounding toward zero", so a key of 2.5 would silently name row 2; and
/// `Int64.fetchOne`/`fetchCursor` take `sqlite3_column_int64`, which reads `'abc'` as 0. Here a
/// value is taken only when it is an INTEGER, or a REAL with no fraction that fits in 64 bits;
/// anything else is an `unreadableValue` error naming the table, the row and the column.
enum StoredInteger {
    /// Where a value was read, for the error message: "row 3 of ZBOOK", "a row of ZBOOK",
    /// "the Z_PRIMARYKEY row of entity 2".
    struct Location {
        var row: String
        var column: String

        /// A row of a table whose `Z_PK` is `key` (nil when the key itself is unreadable).
        static func row(_ key: Int64?, of table: String, column: String) -> Location {
            Location(row: key.map { "row \($0) of \(PrintableText.escaped(table))" } ?? "a row of \(PrintableText.escaped(table))",
                     column: PrintableText.escaped(column))
        }
    }

    /// The whole number `value` holds, or nil for NULL. `meaning` says what the column holds,
    /// for the message ("a primary key").
    static func read(_ value: DatabaseValue, at location: @autoclosure () -> Location,
                     meaning: String) throws(SQLiteStoreError) -> Int64? {
        switch value.storage {
        case .null:
            return nil
        case .int64(let number):
            return number
        case .double(let number):
            // INTEGER affinity stores a whole REAL as an INTEGER; a REAL that is still whole
            // here came through a column without that affinity and means the same number.
            if let whole = Int64(exactly: number) { return whole }
        case .string, .blob:
            break
        }
        throw unreadable(value, at: location(), meaning: meaning)
    }

    /// The same, where NULL is as unreadable as a value of the wrong kind.
    static func readRequired(_ value: DatabaseValue, at location: @autoclosure () -> Location,
                             meaning: String) throws(SQLiteStoreError) -> Int64 {
        guard let number = try read(value, at: location(), meaning: meaning) else {
            throw unreadable(value, at: location(), meaning: meaning)
        }
        return number
    }

    /// The `Z_PK`s a query of `table` selects as its first column, each read as
    /// `readRequired` reads it.
    static func fetchPrimaryKeys(_ db: Database, sql: String, arguments: StatementArguments = StatementArguments(),
                                 table: String) throws -> [Int64] {
        var keys: [Int64] = []
        let values = try DatabaseValue.fetchCursor(db, sql: sql, arguments: arguments)
        while let value = try values.next() {
            keys.append(try readRequired(value, at: .row(nil, of: table, column: "Z_PK"), meaning: "a primary key"))
        }
        return keys
    }

    /// One line: `row 3 of ZBOOK has ZUSER 'abc' (text), which is not a primary key (a whole number)`.
    static func unreadable(_ value: DatabaseValue, at location: Location, meaning: String) -> SQLiteStoreError {
        SQLiteStoreError(.unreadableValue,
                         "\(location.row) has \(location.column) \(describe(value)), which is not \(meaning) (a whole number)")
    }

    /// A stored value as the message shows it: short, on one line.
    static func describe(_ value: DatabaseValue) -> String {
        switch value.storage {
        case .null: return "NULL"
        case .int64(let number): return "\(number) (integer)"
        case .double(let number): return "\(number) (real)"
        case .string(let text):
            let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
            return "'\(PrintableText.escaped(shown))' (text)"
        case .blob(let bytes): return "a \(bytes.count)-byte blob"
        }
    }
}

import CSQLiteDefences
import DataModel
import GRDB

/// SQLite's own settings for a database file someone else made, applied to every connection
/// a `StoreSnapshot` opens, before the file's schema is read (GRDB's `prepareDatabase`):
///
/// - `SQLITE_DBCONFIG_DEFENSIVE` on: "disables language features that allow ordinary SQL to
///   deliberately corrupt the database file" (https://www.sqlite.org/c3ref/c_dbconfig_defensive.html).
/// - `SQLITE_DBCONFIG_TRUSTED_SCHEMA` off: "SQLite … assume[s] that the database schema is
///   untainted by malicious content": off, "SQL functions and virtual tables [not marked
///   innocuous] … cannot be used" from views, triggers, CHECK constraints, DEFAULT clauses,
///   generated columns and indexes (https://www.sqlite.org/pragma.html#pragma_trusted_schema,
///   https://www.sqlite.org/security.html: "Untrusted SQLite database files").
/// - `SQLITE_DBCONFIG_ENABLE_VIEW` and `SQLITE_DBCONFIG_ENABLE_TRIGGER` off: a view (an endless
///   recursive query behind a table's name) cannot be read, and no trigger runs. A Core Data
///   store has no view; momlint never writes, so a trigger would have nothing to do.
/// - `sqlite3_limit`: "applications that accept untrusted SQL or database files should lower
///   these limits" (https://www.sqlite.org/security.html, and
///   https://www.sqlite.org/c3ref/limit.html): the longest value (`SQLITE_LIMIT_LENGTH`), SQL
///   statement, expression depth, compound select, function arguments, attached databases
///   (none), LIKE pattern and trigger depth.
/// - a progress handler, "invoked periodically during long running calls to … sqlite3_step()
///   … If the progress callback returns non-zero, the operation is interrupted"
///   (https://www.sqlite.org/c3ref/progress_handler.html): each read (opening and describing
///   the file, each operation of a read-only store, each thousand objects of a dump) has
///   `StoreReadLimits.timeLimit` seconds.
///
/// What the settings cannot see — a view, a virtual table or a generated column under the name
/// of a table momlint reads — is refused beforehand by `StoreFileDescription`'s look at
/// `sqlite_schema`.
final class SQLiteDefences: @unchecked Sendable {
    let limits: StoreReadLimits
    /// The C budget; written by SQLite's progress handler on the connection's thread, read
    /// after the statement returns.
    private let budget: OpaquePointer

    init(limits: StoreReadLimits) throws(SQLiteStoreError) {
        self.limits = limits
        guard let budget = momlint_sqlite_budget_install(nil, limits.timeLimit) else {
            throw SQLiteStoreError(.database, "out of memory")
        }
        self.budget = budget
    }

    deinit {
        momlint_sqlite_budget_free(budget)
    }

    /// Applies every setting to `db`'s connection; throws when this SQLite lacks one.
    func apply(to db: Database) throws {
        let connection = UnsafeMutableRawPointer(db.sqliteConnection)
        let code = momlint_sqlite_defend(connection, Int32(clamping: limits.maximumValueBytes),
                                         Int32(clamping: limits.maximumSQLBytes))
        guard code == 0 else {
            throw SQLiteStoreError(.database,
                                   "this SQLite (\(String(cString: momlint_sqlite_version()))) lacks a defensive setting momlint needs to read a file someone else made (SQLite 3.35 or later has them all)")
        }
        momlint_sqlite_budget_attach(connection, budget)
    }

    /// Gives the next read the whole time limit again: the budget bounds one read (a
    /// description, a dump's next thousand objects), not how long a store stays open.
    func restartBudget() {
        momlint_sqlite_budget_restart(budget, limits.timeLimit)
    }

    /// An error while reading the file at `path`, as one line: SQLite's interruption by the time
    /// budget and its "string or blob too big" say which limit was crossed.
    func describing(_ error: any Error, path: String) -> SQLiteStoreError {
        if let error = error as? DatabaseError {
            if error.resultCode == .SQLITE_INTERRUPT, momlint_sqlite_budget_expired(budget) != 0 {
                return SQLiteStoreError(.incompatibleFile,
                                        "\(StoreSidecarFiles.quoted(path)) took longer than \(Self.seconds(limits.timeLimit)) to read, the time limit; a store of ordinary size reads in seconds, so this one is damaged or made to be slow")
            }
            if error.resultCode == .SQLITE_TOOBIG {
                return SQLiteStoreError(.incompatibleFile,
                                        "\(StoreSidecarFiles.quoted(path)) holds a value longer than \(limits.maximumValueBytes) bytes, the limit of one value momlint reads")
            }
        }
        return SQLiteStoreError.describing(error, path: path)
    }

    private static func seconds(_ value: Double) -> String {
        value == value.rounded() ? "\(Int(value)) s" : "\(value) s"
    }
}

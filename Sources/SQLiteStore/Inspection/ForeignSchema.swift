import DataModel
import GRDB

/// A look at `sqlite_schema` before any table of a file someone else made is read.
///
/// A table's name promises nothing: the name `Z_PRIMARYKEY` can be a view over an endless
/// recursive query, a virtual table (FTS5) reading from such a view, and a column `Z_PLIST` can
/// be generated (`zeroblob(999999999)`), computed by SQL the file carries each time it is
/// read. A Core Data store has none of them (Core Data's tables are plain tables of stored
/// columns), so:
///
/// - a view or a virtual table under a name momlint reads (a name starting with `Z`, or Core
///   Data's persistent-history tables) is refused, naming it;
/// - a generated column in a table momlint reads (those names, and any table with a `Z_ENT`
///   column, whose rows it counts) is refused, naming it;
/// - other views and virtual tables — an app's own full-text index beside its store — are never
///   read: they are left out of the tables momlint lists, so nothing of them runs.
///
/// Views also cannot run at all (`SQLiteDefences` switches them off); this check turns what
/// would be a confusing failure into a line that says what the file holds.
enum ForeignSchema {
    /// The plain tables of the file, by name, after refusing what a Core Data store never holds.
    static func plainTables(_ db: Database, path: String, limits: StoreReadLimits) throws -> [String] {
        let shown = StoreSidecarFiles.quoted(path)
        let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM sqlite_schema") ?? 0
        guard count <= limits.maximumSchemaObjects else {
            throw SQLiteStoreError(.incompatibleFile,
                                   "\(shown) has \(count) tables, indexes, views and triggers, over the limit of \(limits.maximumSchemaObjects) for a store")
        }
        var plain: [String] = []
        for row in try Row.fetchAll(db, sql: "SELECT type, name, sql FROM sqlite_schema WHERE type IN ('table', 'view') ORDER BY name") {
            let type: String = Self.text(row[0])
            let name: String = Self.text(row[1])
            let sql: String = Self.text(row[2])
            let isVirtual = type == "table" && Self.normalized(sql).hasPrefix("CREATE VIRTUAL TABLE")
            if type == "view" || isVirtual {
                guard isReadByMomlint(name) else { continue }
                let kind = type == "view" ? "a view (a query the file carries, run each time it is read)" : "a virtual table (\(Self.module(of: sql)))"
                throw SQLiteStoreError(.incompatibleFile,
                                       "\(shown) is not a Core Data store: \(PrintableText.bounded(name)) is \(kind), not a table of stored rows; Core Data's tables are plain tables, and momlint does not read anything else under their names")
            }
            plain.append(name)
        }
        for name in plain {
            let columns = try Row.fetchAll(db, sql: "SELECT name, hidden FROM pragma_table_xinfo(?)", arguments: [name])
            let readByMomlint = isReadByMomlint(name) || columns.contains { (Self.text($0[0]) as String).uppercased() == "Z_ENT" }
            guard readByMomlint else { continue }
            for column in columns {
                // table_xinfo's `hidden`: 2 a generated VIRTUAL column, 3 a generated STORED one
                // (https://www.sqlite.org/pragma.html#pragma_table_xinfo).
                guard case .int64(let hidden) = (column[1] as DatabaseValue).storage, hidden == 2 || hidden == 3 else { continue }
                throw SQLiteStoreError(.incompatibleFile,
                                       "\(shown) is not a Core Data store: \(PrintableText.bounded(name)).\(PrintableText.bounded(Self.text(column[0]))) is a generated column (computed by SQL the file carries each time it is read, not stored); Core Data stores every column, and momlint does not run a file's SQL")
            }
        }
        return plain
    }

    /// True for the tables momlint reads: Core Data's (every entity and join table, and its
    /// bookkeeping, start with `Z`) and persistent history's.
    static func isReadByMomlint(_ name: String) -> Bool {
        let upper = name.uppercased()
        return upper.hasPrefix("Z") || ["ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"].contains(upper)
    }

    private static func text(_ value: DatabaseValue) -> String {
        if case .string(let text) = value.storage { return text }
        return ""
    }

    /// Upper case, runs of white space as one space: SQLite reads `create  virtual table` too.
    private static func normalized(_ sql: String) -> String {
        sql.prefix(200).uppercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    private static func module(of sql: String) -> String {
        let words = normalized(sql).split(separator: " ")
        guard let using = words.firstIndex(of: "USING"), using + 1 < words.count else { return "an unknown module" }
        return "module " + PrintableText.bounded(String(words[using + 1].prefix { $0 != "(" }).lowercased(), limit: 40)
    }
}

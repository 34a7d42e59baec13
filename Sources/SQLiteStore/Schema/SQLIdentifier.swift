/// An SQL identifier, always written quoted.
///
/// Core Data writes its table and column names bare, so an entity or property whose name holds a
/// space breaks its SQL (https://github.com/lionheart/openradar-mirror/issues/2116). We quote
/// every identifier instead: "If you want to use a keyword as a name, you need to quote it … A
/// keyword in double-quotes is an identifier" (https://www.sqlite.org/lang_keywords.html), and a
/// double quote inside is escaped by doubling it.
struct SQLIdentifier: Hashable, Sendable, CustomStringConvertible {
    /// The name as SQLite stores it (in `sqlite_master`, `PRAGMA table_info`).
    let name: String
    /// The name ready to splice into SQL text; made once, since SQL is built per request.
    let quoted: String

    init(_ name: String) {
        self.name = name
        var quoted = "\""
        for character in name {
            quoted.append(character)
            if character == "\"" { quoted.append(character) }
        }
        self.quoted = quoted + "\""
    }

    var description: String { quoted }
}

/// Hands out Core Data–style names (`Z` + the upper-cased element name) that are unique within
/// one namespace, adding a digit on a clash as Core Data does (coredata-semantics §7). SQLite compares
/// identifiers case-insensitively, so clashes are found on the upper-cased spelling.
struct IdentifierAllocator {
    private var taken: Set<String>

    init(reserved: [String] = []) {
        taken = Set(reserved.map { $0.uppercased() })
    }

    mutating func claim(_ preferred: String) -> SQLIdentifier {
        var candidate = preferred
        var suffix = 1
        while taken.contains(candidate.uppercased()) {
            candidate = preferred + String(suffix)
            suffix += 1
        }
        taken.insert(candidate.uppercased())
        return SQLIdentifier(candidate)
    }
}

/// The adapters `--adapter NAME` can name: exact names (`reference`, `sqlite`) and prefixed
/// families that take an argument (`exec:COMMAND`). The command-line tool builds the registry,
/// so adapters in other modules join it with one entry.
public struct StoreAdapterRegistry: Sendable {
    public struct Entry: Sendable {
        /// The exact name, or the prefix (ending in `:`) of a family.
        public var name: String
        /// One line for `--help` and error messages.
        public var summary: String
        /// Builds the adapter from what follows the prefix (empty for an exact name).
        public var make: @Sendable (_ argument: String) throws -> any StoreAdapter

        public init(name: String, summary: String, make: @escaping @Sendable (_ argument: String) throws -> any StoreAdapter) {
            self.name = name
            self.summary = summary
            self.make = make
        }

        var isPrefix: Bool { name.hasSuffix(":") }
    }

    public private(set) var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    public mutating func register(_ entry: Entry) {
        entries.append(entry)
    }

    /// The adapter `name` selects, or an error listing the known ones.
    public func adapter(named name: String) throws -> any StoreAdapter {
        if let entry = entries.first(where: { !$0.isPrefix && $0.name == name }) {
            return try entry.make("")
        }
        if let entry = entries.first(where: { $0.isPrefix && name.hasPrefix($0.name) }) {
            let argument = String(name.dropFirst(entry.name.count))
            guard !argument.isEmpty else {
                throw UnknownAdapterError(message: "'\(entry.name)' needs an argument, e.g. '\(entry.name)COMMAND'")
            }
            return try entry.make(argument)
        }
        throw UnknownAdapterError(message: "unknown adapter '\(name)'; known adapters: "
            + entries.map { $0.isPrefix ? "\($0.name)…" : $0.name }.joined(separator: ", "))
    }

    /// The `--adapter` help text: each adapter and what it is.
    public var helpText: String {
        entries.map { "\($0.isPrefix ? $0.name + "…" : $0.name): \($0.summary)" }.joined(separator: "; ")
    }
}

public struct UnknownAdapterError: Error, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

import Foundation
import SafeFiles

/// The scenarios an implementation knowingly fails, like test262's skip lists: one scenario id
/// or glob (`*`, `?`, `[...]`) per line; `#` starts a comment; blank lines are ignored.
///
/// A listed scenario that fails is an expected failure; one that passes is an unexpected pass,
/// which fails the run so the list shrinks as the implementation improves.
public struct ExpectedFailures: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var pattern: String
        public var line: Int

        public init(pattern: String, line: Int) {
            self.pattern = pattern
            self.line = line
        }
    }

    public var entries: [Entry]
    /// The file the list came from, for messages.
    public var file: String

    public init(entries: [Entry] = [], file: String = "") {
        self.entries = entries
        self.file = file
    }

    public static let none = ExpectedFailures()

    /// Reads a list from `file`.
    public init(contentsOf file: String) throws(ScenarioLoadError) {
        let bytes: [UInt8]
        do {
            // Regular files only, and bounded: a list from another project must not hang or flood the run.
            bytes = try RegularFileReader.bytes(atPath: file, limit: 1 << 20)
        } catch {
            throw ScenarioLoadError(file: file, message: "cannot read the expected-failures file: \(error.reason)")
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw ScenarioLoadError(file: file, message: "cannot read the expected-failures file: it is not UTF-8 text")
        }
        try self.init(parsing: text, file: file)
    }

    /// Parses a list; an entry with characters no scenario id can hold is an error.
    public init(parsing text: String, file: String) throws(ScenarioLoadError) {
        var entries: [Entry] = []
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let content = rawLine.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces)
            guard !content.isEmpty else { continue }
            guard content.allSatisfy({ $0.isLetter || $0.isNumber || "-._*?[]!".contains($0) }) else {
                throw ScenarioLoadError(file: file, line: index + 1, column: 1, message:
                    "'\(content)' is not a scenario id or glob; write one per line, comments after '#'")
            }
            entries.append(Entry(pattern: content, line: index + 1))
        }
        self.entries = entries
        self.file = file
    }

    /// True when `scenarioID` is listed.
    public func contains(_ scenarioID: String) -> Bool {
        entries.contains { Self.glob($0.pattern, matches: scenarioID) }
    }

    /// Entries that match none of `scenarioIDs`: stale lines worth deleting.
    public func unmatchedEntries(among scenarioIDs: [String]) -> [Entry] {
        entries.filter { entry in !scenarioIDs.contains { Self.glob(entry.pattern, matches: $0) } }
    }

    /// Shell-style matching, as `fnmatch(3)` does it.
    public static func glob(_ pattern: String, matches text: String) -> Bool {
        fnmatch(pattern, text, 0) == 0
    }
}

extension ExpectedFailures {
    /// Each adapter's expected failures, by the adapter's name, from the files given on the
    /// command line: a file given as `ADAPTER=FILE` applies to that adapter (named as requested
    /// or as it names itself), a plain file to every adapter.
    public struct ByAdapter {
        public private(set) var lists: [String: ExpectedFailures] = [:]
        /// One line per entry that matches no scenario (not fatal: a list may outlive a scenario),
        /// in the order the files were read.
        public private(set) var notes: [String] = []
        /// The first file that could not be read; the files after it were not.
        public private(set) var failure: ScenarioLoadError?

        public init(files: [String], adapters: [(requested: String, name: String)], scenarioIDs: [String]) {
            for argument in files {
                var adapter: String?
                var path = argument
                // The longest adapter name the argument starts with, so `exec:a=b` commands work.
                let match = adapters.flatMap { [($0.requested, $0.name), ($0.name, $0.name)] }
                    .filter { argument.hasPrefix($0.0 + "=") }
                    .max { $0.0.count < $1.0.count }
                if let match {
                    adapter = match.1
                    path = String(argument.dropFirst(match.0.count + 1))
                }
                let list: ExpectedFailures
                do {
                    list = try ExpectedFailures(contentsOf: path)
                } catch {
                    failure = error
                    return
                }
                for entry in list.unmatchedEntries(among: scenarioIDs) {
                    notes.append("\(path):\(entry.line): note: '\(entry.pattern)' matches no scenario; remove it")
                }
                for name in adapter.map({ [$0] }) ?? adapters.map(\.name) {
                    var merged = lists[name] ?? ExpectedFailures(file: path)
                    merged.entries += list.entries
                    lists[name] = merged
                }
            }
        }
    }
}

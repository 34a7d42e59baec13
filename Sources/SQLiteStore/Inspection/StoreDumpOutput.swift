import Conformance
import DataModel
import Foundation
import SafeFiles

extension StoreDump {
    public enum Format: String, Sendable, CaseIterable {
        case json, text
    }

    /// The bytes of text from the store that one line of the text format shows: a value
    /// longer than this is cut, saying how much was left out (the JSON format keeps it whole).
    public static let textValueBound = 1_000

    /// One object as the text format prints it: a blank line, `Entity id`, then one line per
    /// attribute and relationship, every name and value escaped and bounded.
    static func textBlock(_ object: Object) -> String {
        var lines = ["", "\(PrintableText.bounded(object.entity)) \(PrintableText.bounded(object.id))"]
        for (name, value) in object.values.sorted(by: { $0.key < $1.key }) {
            lines.append("  \(PrintableText.bounded(name)) = \(PrintableText.bounded("\(value)", limit: textValueBound))")
        }
        for (name, value) in object.relationships.sorted(by: { $0.key < $1.key }) {
            switch value {
            case .toOne(let id): lines.append("  \(PrintableText.bounded(name)) -> \(id.map { PrintableText.bounded($0) } ?? "nil")")
            case .toMany(let ids):
                lines.append("  \(PrintableText.bounded(name)) -> [\(PrintableText.bounded(ids.joined(separator: ", "), limit: textValueBound))]")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The text format's first lines: the file, its summary, each entity's count.
    static func textHeader(_ store: Store) -> String {
        var lines = ["\(PrintableText.bounded(store.path, limit: 1_000)): \(store.summary)"]
        for entity in store.entities {
            lines.append("  \(PrintableText.bounded(entity.name)) (entity \(entity.number)): \(entity.objects) object\(entity.objects == 1 ? "" : "s")")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A value JSON cannot hold (an infinity a REAL column may store), named.
    static func checkJSONCanHold(_ object: Object) throws(SQLiteStoreError) {
        for (name, value) in object.values.sorted(by: { $0.key < $1.key }) {
            guard case .double(let number) = value, !number.isFinite else { continue }
            throw SQLiteStoreError(.unreadableValue,
                                   "\(PrintableText.bounded(object.id)) has \(PrintableText.bounded(name)) \(number), which JSON cannot hold; dump it with --format text")
        }
    }
}

extension SQLiteObjectStore {
    /// Writes the dump, reading one object at a time: the output is gathered in memory up to
    /// 16 MiB, and beyond that in a temporary file of momlint's own that has no name (unlinked
    /// as soon as it is made, so nothing is left behind even after a kill), and is handed to
    /// `write` in pieces only once the whole store has been read — a store that fails half-way
    /// prints nothing but its error.
    public func writeDump(format: StoreDump.Format, to write: ([UInt8]) throws -> Void) throws {
        var buffer = SpillBuffer()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        var first = true
        let counts = try forEachSavedObject { object in
            switch format {
            case .text:
                try buffer.append(bytes: Array(StoreDump.textBlock(object).utf8))
            case .json:
                try StoreDump.checkJSONCanHold(object)
                let encoded = Array(PrintableText.terminalSafeJSON([UInt8](try encoder.encode(object))).utf8)
                var indented: [UInt8] = first ? [] : Array(",\n".utf8)
                indented.reserveCapacity(indented.count + encoded.count + encoded.count / 8)
                var lineStart = true
                for byte in encoded {
                    if lineStart && byte != 0x0A { indented += [0x20, 0x20, 0x20, 0x20] }
                    indented.append(byte)
                    lineStart = byte == 0x0A
                }
                try buffer.append(bytes: indented)
                first = false
            }
        }
        let store = dumpedStore(counts: counts)
        switch format {
        case .text:
            try write(Array(StoreDump.textHeader(store).utf8))
            try buffer.drain(into: write)
        case .json:
            try write(Array("{\n  \"objects\" : [\n".utf8))
            try buffer.drain(into: write)
            let encodedStore = PrintableText.terminalSafeJSON(Array(try encoder.encode(store)))
            let indentedStore = encodedStore.split(separator: "\n", omittingEmptySubsequences: false).enumerated()
                .map { $0.offset == 0 || $0.element.isEmpty ? String($0.element) : "  " + $0.element }.joined(separator: "\n")
            try write(Array("\n  ],\n  \"schemaVersion\" : \(StoreDump.schemaVersion),\n  \"store\" : \(indentedStore)\n}\n".utf8))
        }
    }
}

/// Bytes gathered in memory up to a bound, then in an unnamed temporary file.
private struct SpillBuffer {
    static let memoryBound = 16 << 20
    private var memory: [UInt8] = []
    private var file: Int32 = -1

    mutating func append(bytes: [UInt8]) throws {
        memory += bytes
        guard memory.count >= Self.memoryBound else { return }
        if file < 0 {
            let folder = NSTemporaryDirectory()
            var template = Array(((folder.hasSuffix("/") ? folder : folder + "/") + "momlint-dump-XXXXXX").utf8CString)
            file = mkstemp(&template)
            guard file >= 0 else { throw SQLiteStoreError(.database, "cannot make a temporary file for the dump: \(String(cString: strerror(errno)))") }
            template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        }
        do {
            try OutputFileWriter.writeAll(memory, to: file, path: "the dump's temporary file")
        } catch {
            throw SQLiteStoreError(.database, "cannot write the dump's temporary file: \(error.reason)")
        }
        memory.removeAll(keepingCapacity: true)
    }

    /// Hands over everything gathered, in order, in pieces of at most 1 MiB, and closes the file.
    mutating func drain(into write: ([UInt8]) throws -> Void) throws {
        defer {
            if file >= 0 { close(file) }
            file = -1
        }
        if file >= 0 {
            var offset = 0
            var chunk = [UInt8](repeating: 0, count: 1 << 20)
            while true {
                let got = chunk.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, off_t(offset)) }
                if got < 0 && errno == EINTR { continue }
                guard got > 0 else { break }
                try write(Array(chunk[0..<got]))
                offset += got
            }
        }
        if !memory.isEmpty { try write(memory) }
        memory = []
    }
}

extension StoreDump {
    /// `momlint store dump`: opens the store at `path` once, read only
    /// (`SQLiteObjectStore.init(readingOnly:reader:)`), and writes its dump
    /// (`writeDump(format:to:)`) read with `model`, or, when `choosingByHashes` (a bundle was
    /// given), with the one of `versions` whose entity version hashes equal the store's.
    /// `remark` hears, before a row is read, which version that is, or that the store's hashes
    /// are not `model`'s (its rows are then read by structure).
    public static func write(storeAt path: String, model: Model, versions: [Model], choosingByHashes: Bool, format: Format,
                             remark: (String) -> Void, to write: ([UInt8]) throws -> Void) throws {
        let store = try SQLiteObjectStore(readingOnly: path) { description in
            let match = StoreVersionMatch(file: description, versions: versions)
            guard match.method == .versionHashes else { return model }
            if choosingByHashes, let written = match.matches.first?.model {
                remark("reading with version '\(written.version.name)': every entity hash matches the store's")
                return written
            }
            if !match.matches.contains(where: { $0.model.file == model.file }) {
                remark("note: the store's version hashes are not those of '\(model.version.name)' "
                       + "(Core Data would not open it with this version); its rows are read by structure")
            }
            return model
        }
        defer { try? store.close() }
        try store.writeDump(format: format, to: write)
    }
}

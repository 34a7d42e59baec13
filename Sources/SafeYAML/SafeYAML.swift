@preconcurrency import CYaml
import Foundation
import SafeFiles
import Yams

/// Reads YAML written by people we do not trust (a `.momlint.yml` in a pull request, a
/// scenario file from another project) in bounded time and memory, then composes it with Yams.
///
/// What Yams alone does not bound, and this does:
/// - Size and kind: files are read through `readText`, which reads only regular files (a FIFO,
///   a terminal or `/dev/zero` passed as a configuration is refused before a byte is read) and
///   never past the limit.
/// - Aliases: Yams shares an aliased node instead of copying it, but anything that walks the
///   tree (a reader, `==`, hashing — which Yams' own duplicate-key check does on every mapping
///   key) sees every copy, so a "billion laughs" document of 1 KB becomes 10⁹ nodes.
///   `check` counts nodes as if every alias were expanded and refuses past the limit.
/// - Depth: Yams composes recursively, so `[[[[…` a few hundred thousand deep would overflow
///   the stack.
/// The check runs libyaml's event parser (the one Yams uses) once over the text, keeping
/// only a counter per open collection and per anchor.
public enum SafeYAML {
    public struct Limits: Hashable, Sendable {
        /// Bytes of YAML text. momlint's configuration and scenario files are a few kilobytes.
        public var maximumBytes: Int
        /// Nodes in the document, counting each alias as a copy of the node it names.
        public var maximumNodes: Int
        /// Nesting of sequences and mappings.
        public var maximumDepth: Int

        public init(maximumBytes: Int = 1024 * 1024, maximumNodes: Int = 100_000, maximumDepth: Int = 64) {
            self.maximumBytes = maximumBytes
            self.maximumNodes = maximumNodes
            self.maximumDepth = maximumDepth
        }

        public static let standard = Limits()
    }

    /// Checks `yaml` against `limits`, then composes it with Yams (`nil` for an empty document).
    /// Throws a `YAMLRefusal` for a limit, and Yams' own `YamlError` for malformed YAML.
    public static func compose(yaml: String, limits: Limits = .standard) throws -> Node? {
        try check(yaml, limits: limits)
        return try Yams.compose(yaml: yaml)
    }

    /// Reads the UTF-8 text of the file at `path`, refusing it if it is larger than
    /// `limits.maximumBytes`, without ever reading more than one byte past the limit.
    public static func readText(atPath path: String, limits: Limits = .standard) throws(YAMLRefusal) -> String {
        let bytes: [UInt8]
        do {
            bytes = try RegularFileReader.bytes(atPath: path, limit: limits.maximumBytes)
        } catch {
            if case .tooLarge = error.problem {
                throw YAMLRefusal("the file is larger than \(limits.maximumBytes) bytes, the limit for a YAML file; "
                                  + "momlint's YAML files are a few kilobytes")
            }
            throw YAMLRefusal(unreadable: error.reason)
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw YAMLRefusal(unreadable: "it is not UTF-8 text")
        }
        return text
    }

    /// Refuses `yaml` if it is over a limit. Malformed YAML passes: Yams reports it better.
    public static func check(_ yaml: String, limits: Limits = .standard) throws(YAMLRefusal) {
        let bytes = Array(yaml.utf8)
        guard bytes.count <= limits.maximumBytes else {
            throw YAMLRefusal("the document is \(bytes.count) bytes, over the limit of \(limits.maximumBytes) bytes "
                              + "for a YAML file; momlint's YAML files are a few kilobytes")
        }
        var counter = ExpansionCounter(limits: limits)
        var parser = yaml_parser_t()
        guard yaml_parser_initialize(&parser) == 1 else { throw YAMLRefusal("libyaml could not create a parser") }
        defer { yaml_parser_delete(&parser) }
        try bytes.withUnsafeBufferPointer { (buffer) throws(YAMLRefusal) in
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while yaml_parser_parse(&parser, &event) == 1 {
                defer { yaml_event_delete(&event) }
                if event.type == YAML_STREAM_END_EVENT { return }
                try counter.count(event)
            }
            // libyaml has its own nesting guard (1,000 levels), which can fire first when its
            // scanner looks ahead along one line of `[[[[…`; say it in our words.
            if let problem = parser.problem, String(cString: problem).hasPrefix("Maximum nesting level") {
                throw YAMLRefusal("sequences and mappings nest deeper than \(limits.maximumDepth) levels",
                                  line: Int(parser.problem_mark.line) + 1, column: Int(parser.problem_mark.column) + 1)
            }
            // Any other syntax error: stop here, and let Yams report it with its own message.
        }
    }
}

/// A YAML document refused before it is composed: a file that cannot be read as text, or
/// one over a size, depth or node limit.
public struct YAMLRefusal: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The file cannot be opened, or is not UTF-8; `message` says why.
        case unreadable
        /// Over one of `SafeYAML.Limits`.
        case overLimit
    }

    public var kind: Kind
    /// 1-based, where the limit was crossed; nil for problems with the file as a whole.
    public var line: Int?
    public var column: Int?
    /// Lowercase, one line, saying what is wrong and why momlint stops.
    public var message: String

    public init(_ message: String, line: Int? = nil, column: Int? = nil) {
        self.kind = .overLimit
        self.message = message
        self.line = line
        self.column = column
    }

    public init(unreadable why: String) {
        self.kind = .unreadable
        self.message = why
    }

    public var description: String { message }
}

/// Counts the nodes of a YAML event stream as if every alias were expanded.
private struct ExpansionCounter {
    let limits: SafeYAML.Limits
    /// Open sequences and mappings, innermost last: their anchor and expanded size so far.
    private var open: [(anchor: String?, nodes: Int)] = []
    /// Expanded size of each anchored node of the current document.
    private var anchors: [String: Int] = [:]
    private var total = 0
    private var sawAlias = false

    init(limits: SafeYAML.Limits) {
        self.limits = limits
    }

    mutating func count(_ event: yaml_event_t) throws(YAMLRefusal) {
        let mark = event.start_mark
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            anchors = [:]
        case YAML_SCALAR_EVENT:
            try add(1, anchor: Self.text(event.data.scalar.anchor), at: mark)
        case YAML_ALIAS_EVENT:
            sawAlias = true
            // An undefined alias counts as one node; Yams reports it as an error.
            let size = Self.text(event.data.alias.anchor).flatMap { anchors[$0] } ?? 1
            try add(size, anchor: nil, at: mark)
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let anchor = event.type == YAML_SEQUENCE_START_EVENT
                ? Self.text(event.data.sequence_start.anchor) : Self.text(event.data.mapping_start.anchor)
            guard open.count < limits.maximumDepth else {
                throw refusal("sequences and mappings nest deeper than \(limits.maximumDepth) levels", at: mark)
            }
            try grow(by: 1, at: mark)
            open.append((anchor, 1))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let closed = open.popLast() else { return }
            if let anchor = closed.anchor { anchors[anchor] = closed.nodes }
            if !open.isEmpty { open[open.count - 1].nodes += closed.nodes }
        default:
            break
        }
    }

    private mutating func add(_ nodes: Int, anchor: String?, at mark: yaml_mark_t) throws(YAMLRefusal) {
        try grow(by: nodes, at: mark)
        if !open.isEmpty { open[open.count - 1].nodes += nodes }
        if let anchor { anchors[anchor] = nodes }
    }

    private mutating func grow(by nodes: Int, at mark: yaml_mark_t) throws(YAMLRefusal) {
        total += nodes
        guard total > limits.maximumNodes else { return }
        throw refusal(sawAlias
            ? "the document expands to more than \(limits.maximumNodes) nodes once its aliases are expanded; "
                + "remove the aliases (a \"billion laughs\" document looks like this)"
            : "the document has more than \(limits.maximumNodes) nodes; momlint's YAML files need a few hundred",
            at: mark)
    }

    private func refusal(_ message: String, at mark: yaml_mark_t) -> YAMLRefusal {
        YAMLRefusal(message, line: Int(mark.line) + 1, column: Int(mark.column) + 1)
    }

    private static func text(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }
}

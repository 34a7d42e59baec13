/// Attributes of one XML element exactly as written, in document order.
///
/// The parser hands every attribute of a start tag over in one, and the typed fields of the
/// model are read from it. An entity, an attribute or a relationship then keeps only those
/// that no typed field holds: the ones the model does not know (written by a newer Xcode, or
/// the SwiftData reader's `swiftType`), and names of Xcode's grammar the element does not use
/// (an `inverseName` on an attribute), which stay available through it. The model itself,
/// fetch requests, fetched properties, configurations and unknown elements keep them all.
public struct XMLAttributes: Hashable, Sendable, Sequence {
    public struct Attribute: Hashable, Sendable {
        /// A name of Xcode's grammar is kept as its code, which spells itself: a model has
        /// hundreds of thousands of attributes and a handful of distinct names, so no string is
        /// stored, retained or released for them.
        private enum Spelling: Hashable, Sendable {
            case known(KnownXMLName)
            case other(String)

            init(_ name: String) {
                self = KnownXMLName(spelling: name).map(Spelling.known) ?? .other(name)
            }
        }

        private var spelling: Spelling
        public var value: String

        public var name: String {
            get {
                switch spelling {
                case .known(let known): known.rawValue
                case .other(let name): name
                }
            }
            set { spelling = Spelling(newValue) }
        }

        /// The grammar's code for `name`, always in step with it.
        var known: KnownXMLName? {
            if case .known(let known) = spelling { return known }
            return nil
        }

        public init(name: String, value: String) {
            self.spelling = Spelling(name)
            self.value = value
        }

        /// For the parser, for a name of the grammar: its code spells it.
        init(known: KnownXMLName, value: String) {
            self.spelling = .known(known)
            self.value = value
        }

        /// For the parser, which already knows the code of `name`.
        init(name: String, value: String, known: KnownXMLName?) {
            self.spelling = known.map(Spelling.known) ?? .other(name)
            self.value = value
        }
    }

    public private(set) var ordered: [Attribute]

    public init(_ ordered: [Attribute] = []) {
        self.ordered = ordered
    }

    public init(_ pairs: KeyValuePairs<String, String>) {
        self.ordered = pairs.map { Attribute(name: $0.key, value: $0.value) }
    }

    /// The value of the attribute named `name`, or nil when it is absent.
    /// Elements hold a handful of attributes, so a linear scan beats a dictionary here.
    public subscript(name: String) -> String? {
        // A name of the grammar is found by its code: comparing codes beats building and
        // comparing each attribute's spelling.
        if let known = KnownXMLName(spelling: name) { return value(of: known) }
        return ordered.first { $0.known == nil && $0.name == name }?.value
    }

    /// The value of the attribute with this grammar code: codes compare without hashing or
    /// comparing any text.
    func value(of known: KnownXMLName) -> String? {
        // In place: `first(where:)` copied every attribute it passed, value string and all, to
        // compare one byte, and a large model makes this call for every attribute of every
        // element (docs/benchmarks.md, "Copies to compare a byte").
        ordered.withUnsafeBufferPointer { attributes in
            for index in attributes.indices where attributes[index].known == known { return attributes[index].value }
            return nil
        }
    }

    /// Whether any attribute's name is outside Xcode's grammar (read in place, as `value(of:)`).
    public var hasNamesOutsideGrammar: Bool {
        ordered.withUnsafeBufferPointer { attributes in
            attributes.indices.contains { attributes[$0].known == nil }
        }
    }

    /// `YES`/`NO` as Xcode writes them; nil when absent or spelled otherwise.
    public func bool(_ name: String) -> Bool? {
        self[name].flatMap(Self.bool)
    }

    /// `bool(_:)` for the attribute with this grammar code.
    func bool(of known: KnownXMLName) -> Bool? {
        value(of: known).flatMap(Self.bool)
    }

    /// `YES`/`NO` (and the spellings hand edits use) as a Bool; nil for anything else.
    public static func bool(_ value: String) -> Bool? {
        switch value {
        case "YES", "yes", "true", "1": return true
        case "NO", "no", "false", "0": return false
        default: return nil
        }
    }

    public func int(_ name: String) -> Int? {
        self[name].flatMap { Int($0) }
    }

    public var names: [String] { ordered.map(\.name) }

    public func makeIterator() -> IndexingIterator<[Attribute]> { ordered.makeIterator() }
}

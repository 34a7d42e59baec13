/// Bounds on what one input may make the loader do, so any input ends in bounded time
/// and memory. Each is checked as the document is read, and crossing one is a
/// `LoadError` naming the limit, the element that crossed it and how to raise it.
///
/// The defaults sit far above anything Xcode writes (the largest model in our real-world
/// corpus has 235 entities; a generated 10,000-entity benchmark model is about 20 MB and
/// 300,000 elements) and far below what would exhaust a CI machine.
public struct LoadLimits: Hashable, Sendable {
    /// The largest `contents` (or `.xccurrentversion`) file accepted, in bytes.
    public var maximumFileBytes: Int
    /// The deepest element nesting accepted (Core Data's grammar needs five levels).
    public var maximumDepth: Int
    /// Elements in one document, layout and unknown elements included. Each costs a few
    /// hundred bytes once loaded, so this bounds memory more tightly than the file size does.
    public var maximumElements: Int
    /// Attributes (namespace declarations included) on one start tag. Xcode writes at most
    /// about 30; libxml2 2.9 checks each attribute against all earlier ones, so this is also
    /// what keeps one huge start tag from taking quadratic time.
    public var maximumAttributesPerElement: Int
    /// Bytes (UTF-8) in one name: an element or attribute name, or a name the model declares
    /// or refers to (entity, property, class, parent, destination, inverse, configuration).
    public var maximumNameBytes: Int
    /// Entities in one model.
    public var maximumEntities: Int
    /// Attributes, relationships and fetched properties declared by one entity (or composite).
    public var maximumPropertiesPerEntity: Int

    public init(
        maximumFileBytes: Int = 256 * 1024 * 1024,
        maximumDepth: Int = 64,
        maximumElements: Int = 2_000_000,
        maximumAttributesPerElement: Int = 256,
        maximumNameBytes: Int = 1024,
        maximumEntities: Int = 100_000,
        maximumPropertiesPerEntity: Int = 10_000
    ) {
        self.maximumFileBytes = maximumFileBytes
        self.maximumDepth = maximumDepth
        self.maximumElements = maximumElements
        self.maximumAttributesPerElement = maximumAttributesPerElement
        self.maximumNameBytes = maximumNameBytes
        self.maximumEntities = maximumEntities
        self.maximumPropertiesPerEntity = maximumPropertiesPerEntity
    }

    public static let standard = LoadLimits()

    /// One of the bounds above, for errors and documentation.
    public enum Limit: String, Hashable, Sendable, CaseIterable {
        case fileBytes, depth, elements, attributesPerElement, nameBytes, entities, propertiesPerEntity

        /// The `momlint lint` option that raises this limit, for the limits a real model
        /// could conceivably reach; the others are far past anything Xcode writes.
        public var option: String? {
            switch self {
            case .fileBytes: "--max-file-size"
            case .elements: "--max-elements"
            case .entities: "--max-entities"
            case .propertiesPerEntity: "--max-properties"
            case .depth, .attributesPerElement, .nameBytes: nil
            }
        }

        /// What the user can do, as the end of an error message.
        public var advice: String {
            guard let option else { return "Xcode never writes this, so the file is damaged or hostile" }
            return "if the model is real, raise the limit with \(option)"
        }
    }

    /// The value in force for `limit`.
    public subscript(limit: Limit) -> Int {
        switch limit {
        case .fileBytes: maximumFileBytes
        case .depth: maximumDepth
        case .elements: maximumElements
        case .attributesPerElement: maximumAttributesPerElement
        case .nameBytes: maximumNameBytes
        case .entities: maximumEntities
        case .propertiesPerEntity: maximumPropertiesPerEntity
        }
    }
}

/// What crossed a `LoadLimits` bound: the limit, its value, and the element that crossed it.
public struct LoadLimitExceeded: Error, Hashable, Sendable {
    public var limit: LoadLimits.Limit
    /// The value of the limit in force.
    public var maximum: Int
    /// The element or name at fault, as the message quotes it (e.g. `entity 'Order'`).
    public var subject: String

    public init(_ limit: LoadLimits.Limit, maximum: Int, subject: String) {
        self.limit = limit
        self.maximum = maximum
        self.subject = subject
    }

    /// `text` in quotes, cut to 40 characters: enough to find it, never a megabyte of it.
    public static func quoted(_ text: some StringProtocol) -> String {
        text.count > 40 ? "'\(text.prefix(40))…'" : "'\(text)'"
    }

    /// One lowercase sentence: what is over which limit, and what to do about it.
    public var message: String {
        let what = switch limit {
        case .fileBytes: "\(subject) is larger than \(maximum) bytes"
        case .depth: "elements nest deeper than \(maximum) levels at \(subject)"
        case .elements: "the document has more than \(maximum) elements (at \(subject))"
        case .attributesPerElement: "\(subject) has more than \(maximum) attributes"
        case .nameBytes: "\(subject) is longer than \(maximum) bytes"
        case .entities: "the model declares more than \(maximum) entities (at \(subject))"
        case .propertiesPerEntity: "\(subject) declares more than \(maximum) properties"
        }
        return what + "; " + limit.advice
    }
}

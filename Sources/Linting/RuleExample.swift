/// A model snippet that documents and tests a rule, SwiftLint-style.
///
/// For a `.modelContents` example the text holds the children of `<model>` (entities, and
/// configurations where a rule needs them); the test wraps it into a complete `contents` file. A
/// `.currentVersionFile` example is the `.xccurrentversion` property list of a bundle instead.
///
/// In a triggering example, the marker `↓` placed right before an element's `<` says where a
/// finding must be reported; several markers mean several findings, and the rule may report
/// nothing else. `file` and `line` point at the example's own source, so a failing example names
/// itself.
public struct RuleExample: Sendable {
    public enum Document: String, Sendable {
        /// The children of a `<model>` element.
        case modelContents
        /// A bundle's `.xccurrentversion` property list.
        case currentVersionFile
        /// Two versions of a bundle: `markedOlderText` (the older version's `<model>` children)
        /// and `markedText` (the current version's), for the migration rules. Markers may stand
        /// in either; `olderAtBaseText`, when set, is the older version as a base revision holds it.
        case migration
        /// Swift sources declaring `VersionedSchema`s and a `SchemaMigrationPlan` (one file's
        /// text), for the SwiftData versioned-schema rules (`SchemaVersionsRule`). `↓` stands
        /// before the Swift token each finding points at; `olderAtBaseText`, when set, is the
        /// same file as the base revision holds it.
        case swiftDataVersions
    }

    /// The marker that stands where a finding must be reported.
    public static let marker: Character = "↓"

    /// The snippet as written, markers included.
    public var markedText: String
    public var document: Document
    /// For a `.migration` example: the older version, markers included.
    public var markedOlderText: String?
    /// For a `.migration` example of an edited shipped version: the older version as the base
    /// revision (git `HEAD`, or the lock file) holds it.
    public var olderAtBaseText: String?
    public var fileID: String
    public var filePath: String
    public var line: Int

    public init(_ markedText: String, document: Document = .modelContents,
                fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
        self.markedText = markedText
        self.document = document
        self.fileID = fileID
        self.filePath = filePath
        self.line = line
    }

    /// A two-version example for a migration rule: `older` → `current`.
    public init(older: String, current: String, olderAtBase: String? = nil,
                fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
        self.init(current, document: .migration, fileID: fileID, filePath: filePath, line: line)
        markedOlderText = older
        olderAtBaseText = olderAtBase
    }

    /// A SwiftData example: Swift sources declaring versioned schemas and a migration plan
    /// (`base`: the same sources as the base revision holds them, for `shipped_version_modified`).
    public init(swift source: String, base: String? = nil,
                fileID: String = #fileID, filePath: String = #filePath, line: Int = #line) {
        self.init(source, document: .swiftDataVersions, fileID: fileID, filePath: filePath, line: line)
        olderAtBaseText = base
    }

    /// The snippet without markers: what a user would write.
    public var text: String { markedText.filter { $0 != Self.marker } }
}

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
    }

    /// The marker that stands where a finding must be reported.
    public static let marker: Character = "↓"

    /// The snippet as written, markers included.
    public var markedText: String
    public var document: Document
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

    /// The snippet without markers: what a user would write.
    public var text: String { markedText.filter { $0 != Self.marker } }
}

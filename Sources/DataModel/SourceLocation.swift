/// Where an element starts in a file: the `<` of its start tag.
///
/// Lines and columns count from 1. Columns count Unicode scalars, not bytes, so a
/// location reads the same in an editor as in a report.
public struct SourceLocation: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `file:line:column`, the form editors and Xcode turn into a link.
    public var description: String { "\(PrintableText.escaped(file)):\(line):\(column)" }

    /// Hashes the line and column only: within a file they tell elements apart, and hashing the
    /// file's path (often a hundred bytes) for every element cost more than the rest of a set
    /// insertion. Equality still compares the file.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(line)
        hasher.combine(column)
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}

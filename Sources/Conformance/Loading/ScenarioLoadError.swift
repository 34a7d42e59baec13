import DataModel

/// Why a scenario file (or an expected-failures file) cannot be used: one line naming the file
/// and, where the YAML parser or the node says, the line and column.
public struct ScenarioLoadError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String
    /// A consequence of an error already reported in the same file (a step naming an object
    /// whose insert failed): the loader leaves it out.
    var followsEarlierError = false

    public init(file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file[:line:column]`.
    public var place: String {
        guard let line else { return file }
        return "\(file):\(line):\(column ?? 1)"
    }

    /// `file:line:column: error: message`, the form editors turn into a link.
    public var description: String { PrintableText.escaped("\(place): error: \(message)") }
}

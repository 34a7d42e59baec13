import DataModel

/// A problem found in a configuration file: a warning (momlint goes on, ignoring the part
/// it cannot use) or an error (exit 2). One line, naming the file and, where known, the
/// line and column.
public struct ConfigurationDiagnostic: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Level: String, Hashable, Sendable {
        case warning
        case error
    }

    public var level: Level
    public var file: String
    public var line: Int?
    public var column: Int?
    public var message: String

    public init(_ level: Level, file: String, line: Int? = nil, column: Int? = nil, message: String) {
        self.level = level
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    /// `file[:line:column]: warning|error: message`.
    public var description: String {
        let place = line.map { "\(file):\($0):\(column ?? 1)" } ?? file
        // Keys and values quoted in the message come from the file: one line, whatever they hold.
        return PrintableText.escaped("\(place): \(level.rawValue): \(message)")
    }
}

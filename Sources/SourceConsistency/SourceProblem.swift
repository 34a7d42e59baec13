import DataModel

/// A Swift source, or a `--sources` path, that could not be read as given. Each reads as one
/// line naming the file and, for syntax errors, the line and column.
public struct SourceProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Reason: Hashable, Sendable {
        case notFound
        /// A file that is not a `.swift` source, or a folder holding none.
        case noSwiftSources(String)
        case unreadable(String)
        case tooLarge(bytes: Int, limit: Int)
        case notUTF8
        /// The first syntax error, in swift-syntax's words, and how many more the file has.
        case syntaxError(String, moreErrors: Int)
    }

    public var path: String
    public var line: Int?
    public var column: Int?
    public var reason: Reason

    public init(path: String, line: Int? = nil, column: Int? = nil, reason: Reason) {
        self.path = path
        self.line = line
        self.column = column
        self.reason = reason
    }

    public var message: String {
        switch reason {
        case .notFound:
            "no such file or directory"
        case .noSwiftSources(let why):
            why
        case .unreadable(let why):
            "cannot read: \(why)"
        case .tooLarge(let bytes, let limit):
            "the file is \(bytes) bytes, over the limit of \(limit) bytes for a Swift source; it was not checked"
        case .notUTF8:
            "not UTF-8 text, so not a Swift source; it was not checked"
        case .syntaxError(let first, let more):
            "not valid Swift: \(first)"
                + (more > 0 ? " (and \(more) more syntax error\(more == 1 ? "" : "s"))" : "")
                + "; only its well-formed declarations were checked"
        }
    }

    /// `path:line:column: error: message`, the form editors turn into a link; the same
    /// line a model that does not load gives.
    public var description: String { loadError.description }

    /// The same problem as the `LoadError` a `LintRun` carries, so every reporter prints
    /// it and `momlint lint` exits 2, as for a model that does not load.
    public var loadError: LoadError {
        // LoadError's reasons describe models. `notAModel` carries its text verbatim, so the
        // line reads as written here; a dedicated reason for Swift sources would be cleaner
        // once LoadError (DataModel) can take one without touching every reporter.
        switch reason {
        case .notFound:
            LoadError(path: path, line: line, column: column, reason: .notFound)
        default:
            LoadError(path: path, line: line, column: column, reason: .notAModel(message))
        }
    }
}

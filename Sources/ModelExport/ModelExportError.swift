import DataModel

/// Something in a model the export could not say as written, with its place in the file.
public struct ExportProblem: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Hashable, Sendable {
        /// The element cannot be exported at all (a relationship to nowhere, an unknown type).
        case error
        /// The element is exported without the part that could not be read (a default value
        /// that is not a number, say), which the export then omits.
        case warning
    }

    public var severity: Severity
    public var location: SourceLocation
    public var message: String

    /// `file:line:column: severity: message`, one line, as the linter writes findings.
    public var description: String { "\(location): \(severity.rawValue): \(message)" }
}

/// Why a model cannot be exported: elements the normalized form has no way to say, each
/// with its place in the file. The export refuses such a model rather than guess, because a
/// store under test would then be tested against a model Core Data itself would not compile.
public struct ModelExportError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Every problem found, errors and warnings, in document order.
    public var problems: [ExportProblem]

    /// One line per problem.
    public var description: String { problems.map(\.description).joined(separator: "\n") }
}

import SafeFiles

/// Where one reporter writes: `NAME` (standard output) or `NAME:FILE`, as `--reporter` takes it.
public struct ReporterDestination: Sendable, CustomStringConvertible {
    public var reporter: any Reporter.Type
    /// Nil for standard output.
    public var file: String?

    public init(reporter: any Reporter.Type, file: String? = nil) {
        self.reporter = reporter
        self.file = file
    }

    /// Parses `NAME` or `NAME:FILE`. Only the first colon separates, so a file name may hold colons.
    public init(parsing argument: String) throws(ReporterDestinationError) {
        let name: Substring
        var file: String?
        if let colon = argument.firstIndex(of: ":") {
            name = argument[..<colon]
            file = String(argument[argument.index(after: colon)...])
            guard !file!.isEmpty else { throw .missingFile(reporter: String(name)) }
        } else {
            name = Substring(argument)
        }
        guard let reporter = ReporterCatalogue.reporter(named: String(name)) else {
            throw .unknownReporter(String(name))
        }
        self.init(reporter: reporter, file: file)
    }

    /// True for standard output, named or not: `json` and `json:/dev/stdout` (or `/dev/fd/1`, or
    /// a link to either) both go there, in order, rather than the second replacing the file
    /// standard output was redirected to (`OutputFileWriter`).
    public var writesToStandardOutput: Bool {
        guard let file else { return true }
        return (try? OutputFileWriter.openDescriptor(namedBy: file)) == 1
    }

    public var description: String { file.map { "\(reporter.name):\($0)" } ?? reporter.name }
}

public enum ReporterDestinationError: Error, Hashable, Sendable, CustomStringConvertible {
    case unknownReporter(String)
    case missingFile(reporter: String)
    case sharedStandardOutput(document: String, others: [String])
    case sharedFile(path: String, reporters: [String])

    public var description: String {
        let valid = ReporterCatalogue.names.joined(separator: ", ")
        return switch self {
        case .unknownReporter(let name):
            "unknown reporter '\(name)'; valid reporters: \(valid)"
        case .missingFile(let name):
            "'--reporter \(name):' names no file; write '\(name):PATH', or '\(name)' for standard output"
        case .sharedStandardOutput(let document, let others):
            "the '\(document)' report is one document and cannot share standard output with "
                + (others.isEmpty ? "a second '\(document)' report" : others.map { "'\($0)'" }.joined(separator: ", "))
                + "; send all but one report to a file with --reporter NAME:FILE"
        case .sharedFile(let path, let reporters):
            "\(reporters.map { "'\($0)'" }.joined(separator: " and ")) would both write \(path), "
                + "and the second would replace the first; give each report a file of its own"
        }
    }
}

import DataModel
#if !MOMLINT_HOOK_BUILD
import SwiftParser
import SwiftParserDiagnostics
import SwiftSyntax
#endif

/// One Swift source held in memory, and what parsing it yields.
public struct SwiftSourceFile: Sendable {
    /// The name findings show, e.g. `Sources/App/Item.swift`.
    public var path: String
    public var text: String

    public init(path: String, text: String) {
        self.path = path
        self.text = text
    }

    /// How deeply the parser may nest before it reports an error instead of recursing on.
    /// swift-syntax's own default is 20 in debug builds and 256 in release builds; real
    /// code stays far below 64, and 64 keeps a debug build's stack safe too.
    public static let maximumNestingLevel = 64

    /// Parses the file. A file with syntax errors still yields the declarations the parser
    /// recovered, and a problem naming the first error.
    func parse() -> (declarations: FileDeclarations, problem: SourceProblem?) {
        #if MOMLINT_HOOK_BUILD
        // The pre-commit hook's build has no parser; `momlint lint` skips sources there with a
        // note, so only a library user of that build gets here.
        return (FileDeclarations(), SourceProblem(path: path, reason: .syntaxError(
            "this momlint was built without swift-syntax (the pre-commit hook's build) and cannot read Swift", moreErrors: 0)))
        #else
        let (tree, locations, problem) = parseTree()
        let collector = DeclarationCollector(locations: locations)
        collector.walk(tree)
        return (collector.declarations, problem)
        #endif
    }

    #if !MOMLINT_HOOK_BUILD
    /// The file's syntax tree, the table that turns its positions into locations, and a
    /// problem naming the first syntax error, if any (the tree then holds what the parser
    /// recovered). Shared with the SwiftData reader.
    public func parseTree() -> (tree: SourceFileSyntax, locations: SourceLocationTable, problem: SourceProblem?) {
        let bytes = Array(text.utf8)
        let tree = bytes.withUnsafeBufferPointer {
            Parser.parse(source: $0, maximumNestingLevel: Self.maximumNestingLevel)
        }
        let locations = SourceLocationTable(file: path, bytes: bytes)
        var problem: SourceProblem?
        if tree.hasError {
            let errors = ParseDiagnosticsGenerator.diagnostics(for: tree).filter { $0.diagMessage.severity == .error }
            if let first = errors.first {
                let location = locations.location(at: first.position)
                problem = SourceProblem(path: path, line: location.line, column: location.column,
                                        reason: .syntaxError(first.message, moreErrors: errors.count - 1))
            } else {
                problem = SourceProblem(path: path, reason: .syntaxError("the parser could not read it", moreErrors: 0))
            }
        }
        return (tree, locations, problem)
    }
    #endif
}

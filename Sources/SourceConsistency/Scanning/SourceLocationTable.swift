// swift-syntax is absent from the pre-commit hook's build (MOMLINT_HOOK_BUILD; Package.swift).
#if !MOMLINT_HOOK_BUILD
import DataModel
import SwiftSyntax

/// Turns positions in a parsed file into `SourceLocation`s whose columns count Unicode
/// scalars, as model locations do (swift-syntax counts UTF-8 bytes), so a column reads the
/// same in an editor as in a report.
public struct SourceLocationTable {
    public let file: String
    private let bytes: [UInt8]
    private let converter: SourceLocationConverter

    public init(file: String, bytes: [UInt8], tree: SourceFileSyntax) {
        self.file = file
        self.bytes = bytes
        self.converter = SourceLocationConverter(fileName: file, tree: tree)
    }

    /// Where `node` starts, leading comments and whitespace skipped.
    public func location(of node: some SyntaxProtocol) -> DataModel.SourceLocation {
        location(at: node.positionAfterSkippingLeadingTrivia)
    }

    public func location(at position: AbsolutePosition) -> DataModel.SourceLocation {
        let converted = converter.location(for: position)
        let lineStart = max(0, min(bytes.count, converted.offset - (converted.column - 1)))
        let end = max(lineStart, min(bytes.count, converted.offset))
        let scalars = String(decoding: bytes[lineStart..<end], as: UTF8.self).unicodeScalars.count
        return DataModel.SourceLocation(file: file, line: converted.line, column: scalars + 1)
    }
}
#endif

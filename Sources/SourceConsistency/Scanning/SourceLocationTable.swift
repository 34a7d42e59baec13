// swift-syntax is absent from the pre-commit hook's build (MOMLINT_HOOK_BUILD; Package.swift).
#if !MOMLINT_HOOK_BUILD
import DataModel
import SwiftSyntax

/// Turns positions in a parsed file into `SourceLocation`s whose columns count Unicode
/// scalars, as model locations do (swift-syntax counts UTF-8 bytes), so a column reads the
/// same in an editor as in a report.
///
/// Lines are found in the file's bytes, as swift-syntax's `SourceLocationConverter` finds its
/// physical lines (a line ends after `\n`, `\r` or `\r\n`); the converter would find them by
/// walking the whole tree and copying its text out again, which cost a tenth of the SwiftData
/// reader's time in a release build. `#sourceLocation` never mattered here: locations are
/// physical lines and columns.
public struct SourceLocationTable {
    public let file: String
    /// The file's first line and column; every location is made in its file from it, so the
    /// path is looked up once per file (`SourceLocation(line:column:inFileOf:)`).
    private let start: DataModel.SourceLocation
    private let bytes: [UInt8]
    /// The offset where each line after the first starts (just after its line break), ascending.
    private let lineStarts: [Int]

    public init(file: String, bytes: [UInt8]) {
        self.file = file
        self.start = DataModel.SourceLocation(file: file, line: 1, column: 1)
        self.bytes = bytes
        var lineStarts: [Int] = []
        var offset = 0
        while offset < bytes.count {
            let byte = bytes[offset]
            offset += 1
            if byte == UInt8(ascii: "\r"), offset < bytes.count, bytes[offset] == UInt8(ascii: "\n") { offset += 1 }
            if byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") { lineStarts.append(offset) }
        }
        self.lineStarts = lineStarts
    }

    /// The file's bytes that `node` spans, its leading and trailing trivia included (the
    /// tree holds the file's text exactly). Cheaper than `node.syntaxTextBytes`, which
    /// gathers the text token by token.
    public func text(of node: some SyntaxProtocol) -> ArraySlice<UInt8> {
        let start = max(0, min(bytes.count, node.position.utf8Offset))
        return bytes[start..<max(start, min(bytes.count, node.endPosition.utf8Offset))]
    }

    /// Where `node` starts, leading comments and whitespace skipped.
    public func location(of node: some SyntaxProtocol) -> DataModel.SourceLocation {
        location(at: node.positionAfterSkippingLeadingTrivia)
    }

    public func location(at position: AbsolutePosition) -> DataModel.SourceLocation {
        let offset = max(0, min(bytes.count, position.utf8Offset))
        // Lines before `offset`'s: the line starts at or before it (binary search).
        var low = 0, high = lineStarts.count
        while low < high {
            let middle = (low + high) / 2
            if lineStarts[middle] <= offset { low = middle + 1 } else { high = middle }
        }
        let lineStart = low == 0 ? 0 : lineStarts[low - 1]
        let scalars = String(decoding: bytes[lineStart..<offset], as: UTF8.self).unicodeScalars.count
        return DataModel.SourceLocation(line: low + 1, column: scalars + 1, inFileOf: start)
    }
}
#endif

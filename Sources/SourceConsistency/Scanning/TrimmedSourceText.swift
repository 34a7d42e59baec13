// swift-syntax is absent from the pre-commit hook's build (MOMLINT_HOOK_BUILD; Package.swift).
#if !MOMLINT_HOOK_BUILD
import SwiftSyntax

extension SyntaxProtocol {
    /// The node as written, without the trivia before its first token and after its last: what
    /// `trimmedDescription` gives, read from the node's own text. swift-syntax's
    /// `trimmedDescription` builds a trimmed copy of the node (a new tree in a new arena, through
    /// generic key paths) for each call, and the SwiftData reader asks for a type's or a value's
    /// spelling several times per property (docs/benchmarks.md, "The SwiftData reader").
    ///
    /// A node with a syntax error gets `trimmedDescription` itself: a missing token (which has
    /// no text) may come first or last there, and `trimmed` then strips that token's trivia,
    /// not the written text's.
    public var trimmedSourceText: String {
        guard !hasError else { return trimmedDescription }
        let text = syntaxTextBytes
        let start = leadingTriviaLength.utf8Length
        let end = max(start, text.count - trailingTriviaLength.utf8Length)
        return String(decoding: text[start..<end], as: UTF8.self)
    }
}
#endif

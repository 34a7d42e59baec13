/// Why a document could not be read as XML.
struct XMLParseFailure: Error, Equatable {
    enum Kind: Equatable {
        /// libxml2 found the document not well-formed (or not UTF-8).
        case malformed
        /// A DOCTYPE or a declaration inside one: refused on purpose.
        case refused
        /// Past one of `LoadLimits`.
        case overLimit(LoadLimitExceeded)
        /// The callback threw; its message is kept.
        case rejectedByReader
    }
    var kind: Kind
    var message: String
    var line: Int
    var column: Int
}

extension XMLParseFailure {
    // In an extension, so that the struct keeps its memberwise init(kind:message:line:column:).
    init(_ exceeded: LoadLimitExceeded, line: Int, column: Int) {
        self.init(kind: .overLimit(exceeded), message: exceeded.message, line: line, column: column)
    }
}

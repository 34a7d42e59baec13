/// Reads `_XCCurrentVersionName` from a bundle's `.xccurrentversion` property list.
///
/// The file is a small XML plist:
/// `<dict><key>_XCCurrentVersionName</key><string>Model 2.xcdatamodel</string></dict>`.
/// Its DOCTYPE names Apple's DTD, which is never loaded.
struct CurrentVersionReader {
    struct Declaration: Equatable {
        /// The version folder name as written, e.g. `Model 2.xcdatamodel`.
        var versionFileName: String
        var line: Int
        var column: Int
    }

    /// The declared version, or nil when the plist has no `_XCCurrentVersionName`.
    func read(_ bytes: [UInt8], options: XMLEventParser.Options) throws(XMLParseFailure) -> Declaration? {
        var options = options
        options.allowsDocumentType = true
        options.reportsText = true
        var openElement: String?
        var openStart: (line: Int, column: Int) = (1, 1)
        var text = ""
        var lastKey: String?
        var declaration: Declaration?

        try XMLEventParser.parse(bytes, options: options) { event in
            switch event {
            case .start(let tag):
                openElement = tag.name
                openStart = (tag.line, tag.column)
                text = ""
            case .text(let chunk):
                if openElement != nil { text += chunk }
            case .end(let name):
                defer { openElement = nil }
                guard name == openElement else { return }
                let value = text.trimmingEnds(while: \.isWhitespace)
                if name == "key" {
                    lastKey = value
                } else if name == "string", lastKey == "_XCCurrentVersionName", declaration == nil {
                    declaration = Declaration(versionFileName: value, line: openStart.line, column: openStart.column)
                    lastKey = nil
                } else {
                    lastKey = nil
                }
            }
        }
        return declaration
    }
}

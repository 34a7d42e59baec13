/// One start tag as the parser reports it, with the position of its `<`.
struct XMLStartTag {
    var name: String
    /// The grammar's code for `name`, when it has one.
    var known: KnownXMLName?
    var attributes: XMLAttributes
    var line: Int
    var column: Int
}

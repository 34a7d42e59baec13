/// An element the model does not know, kept as written so that nothing a newer Xcode
/// writes is lost or fatal.
public struct UnknownElement: Hashable, Sendable {
    public var name: String
    public var attributes: XMLAttributes
    public var children: [UnknownElement]
    public var location: SourceLocation

    public init(name: String, attributes: XMLAttributes, children: [UnknownElement] = [], location: SourceLocation) {
        self.name = name
        self.attributes = attributes
        self.children = children
        self.location = location
    }
}

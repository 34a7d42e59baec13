/// The `userInfo` dictionary of a model, entity or property, in document order.
public struct UserInfo: Hashable, Sendable {
    public struct Entry: Hashable, Sendable {
        public var key: String
        public var value: String
        public var location: SourceLocation?
        public init(key: String, value: String, location: SourceLocation? = nil) {
            self.key = key
            self.value = value
            self.location = location
        }
    }

    public var entries: [Entry]

    public init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    /// The value of the last entry with `key` (Xcode keeps keys unique; a hand edit may not).
    public subscript(key: String) -> String? {
        entries.last { $0.key == key }?.value
    }

    public var isEmpty: Bool { entries.isEmpty }
}

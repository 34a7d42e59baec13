/// Where a model's description came from.
public enum ModelOrigin: Hashable, Sendable {
    /// A `contents` file of an `.xcdatamodel` (Xcode's model editor).
    case contentsFile
    /// SwiftData `@Model` classes, read from Swift sources: `Model.file` is the source folder
    /// or file given, and every element's location is a Swift `file:line:column`.
    case swiftData
}

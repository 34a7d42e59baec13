/// The declared type of a property, reduced to what the rules compare: the type named
/// (module prefix and optionality removed) and how it is optional.
public struct SwiftTypeReference: Hashable, Sendable, CustomStringConvertible {
    public enum Optionality: Hashable, Sendable {
        case nonOptional
        /// `T?` or `Optional<T>`.
        case optional
        /// `T!`: may hold nil, but reads as if it could not.
        case implicitlyUnwrapped
    }

    /// The type as written, whitespace trimmed, e.g. `Foundation.Date?`.
    public var spelling: String
    /// The named type without module prefix, optionality or generic arguments, after
    /// resolving type aliases declared in the sources: `Date`, `Set`, `NSNumber`.
    public var baseName: String
    public var optionality: Optionality

    public var description: String { spelling }

    public var isOptional: Bool { optionality != .nonOptional }

    /// The Swift integer types with no counterpart among Core Data's attribute types.
    public static let unsignedIntegerNames: Set<String> = ["UInt8", "UInt16", "UInt32", "UInt64", "UInt"]

    public var isUnsignedInteger: Bool { Self.unsignedIntegerNames.contains(baseName) }

    /// The smallest signed integer that holds every value of `unsignedName`, with the
    /// attribute type that stores it; nil for `UInt64` and `UInt`, which no signed integer holds.
    public static func signedType(holding unsignedName: String) -> (swiftName: String, attributeType: String)? {
        switch unsignedName {
        case "UInt8": ("Int16", "Integer 16")
        case "UInt16": ("Int32", "Integer 32")
        case "UInt32": ("Int64", "Integer 64")
        default: nil
        }
    }

    /// Types Objective-C sees as a C scalar, not an object: a nil cannot be stored in them,
    /// so `T?` of these does not compile with `@NSManaged` and optionality rules skip them.
    public static let scalarTypeNames: Set<String> = [
        "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Float", "Double", "CGFloat", "Float32", "Float64", "Bool", "ObjCBool",
    ]

    public var isScalar: Bool { Self.scalarTypeNames.contains(baseName) }
}

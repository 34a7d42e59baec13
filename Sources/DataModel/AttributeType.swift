/// The `attributeType` of an attribute, by the spelling Xcode writes in `contents`.
///
/// Core Data's types are listed in `NSAttributeDescription.AttributeType`
/// (https://developer.apple.com/documentation/coredata/nsattributetype). Anything else a
/// file says is kept as `.unknown` so that a rule, not the loader, reports it.
public enum AttributeType: Hashable, Sendable, CustomStringConvertible {
    case undefined
    case integer16, integer32, integer64
    case decimal, double, float
    case string, boolean, date, binary
    case uuid, uri
    case transformable
    case objectID
    case composite
    case unknown(String)

    public init(xmlName: String) {
        switch xmlName {
        case "Undefined": self = .undefined
        case "Integer 16": self = .integer16
        case "Integer 32": self = .integer32
        case "Integer 64": self = .integer64
        case "Decimal": self = .decimal
        case "Double": self = .double
        case "Float": self = .float
        case "String": self = .string
        case "Boolean": self = .boolean
        case "Date": self = .date
        case "Binary": self = .binary
        case "UUID": self = .uuid
        case "URI": self = .uri
        case "Transformable": self = .transformable
        case "ObjectID": self = .objectID
        case "Composite": self = .composite
        default: self = .unknown(xmlName)
        }
    }

    /// The spelling used in `contents`.
    public var xmlName: String {
        switch self {
        case .undefined: "Undefined"
        case .integer16: "Integer 16"
        case .integer32: "Integer 32"
        case .integer64: "Integer 64"
        case .decimal: "Decimal"
        case .double: "Double"
        case .float: "Float"
        case .string: "String"
        case .boolean: "Boolean"
        case .date: "Date"
        case .binary: "Binary"
        case .uuid: "UUID"
        case .uri: "URI"
        case .transformable: "Transformable"
        case .objectID: "ObjectID"
        case .composite: "Composite"
        case .unknown(let name): name
        }
    }

    public var description: String { xmlName }

    public var isInteger: Bool { self == .integer16 || self == .integer32 || self == .integer64 }
    public var isNumeric: Bool { isInteger || self == .decimal || self == .double || self == .float }

    /// The range an integer type holds; nil for the other types.
    public var integerRange: ClosedRange<Int64>? {
        switch self {
        case .integer16: Int64(Int16.min)...Int64(Int16.max)
        case .integer32: Int64(Int32.min)...Int64(Int32.max)
        case .integer64: Int64.min...Int64.max
        default: nil
        }
    }
}

import DataModel
import Foundation

/// The value of one attribute, as scenarios write it and stores report it.
///
/// The cases are the value kinds of Core Data's attribute types, normalised so that two
/// stores can be compared: every integer type is `integer`, Double/Float/Decimal are `double`,
/// String/URI are `string`, UUIDs are upper-case `uuid` strings, and dates are seconds since
/// 2001-01-01 00:00:00 UTC (Core Data's reference date, `timeIntervalSinceReferenceDate`).
///
/// JSON form (contract §5): `null`, a boolean, a number, or a string; a date is an ISO 8601
/// string and a UUID its canonical string. The attribute's type in the model says how to read it
/// (`coerced(to:)`).
public enum AttributeValue: Hashable, Sendable, CustomStringConvertible {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)
    case uuid(String)
    case date(secondsSinceReferenceDate: Double)
    /// Bytes of a Binary attribute, or a Transformable one's archived value, kept opaque.
    /// Written as base64: `!!binary` in scenario YAML, `{"base64": "…"}` in JSON.
    case binary(Data)

    /// Why a written value does not fit the attribute it is given to.
    public struct CoercionError: Error, Hashable, Sendable, CustomStringConvertible {
        public var description: String
        public init(description: String) { self.description = description }
    }

    /// The value read as the model's `type`, or an error saying why it cannot be.
    ///
    /// Integers accept whole numbers within the type's range; Double/Float/Decimal accept any
    /// number; Boolean accepts booleans; String/URI accept strings; UUID accepts a UUID string;
    /// Date accepts an ISO 8601 date and time (`2024-05-01T12:00:00Z`, fractional seconds and a
    /// `±hh:mm` offset allowed), an ISO 8601 date alone (`2024-05-01`, midnight UTC) or a number
    /// of seconds since the reference date; nothing else, and no part of a string is ignored.
    /// `null` fits every type (optionality is a validation matter, checked at save).
    public func coerced(to type: AttributeType) throws(CoercionError) -> AttributeValue {
        if self == .null { return .null }
        switch type {
        case .integer16, .integer32, .integer64:
            let whole: Int64? = switch self {
            case .integer(let value): value
            case .double(let value) where value.rounded() == value && abs(value) < 9.2e18: Int64(value)
            default: nil
            }
            guard let whole else { throw CoercionError(description: "\(self) is not a whole number") }
            guard type.integerRange!.contains(whole) else {
                throw CoercionError(description: "\(whole) does not fit in \(type.xmlName)")
            }
            return .integer(whole)
        case .double, .decimal:
            switch self {
            case .integer(let value): return .double(Double(value))
            case .double: return self
            default: throw CoercionError(description: "\(self) is not a number")
            }
        case .float:
            switch self {
            case .integer(let value): return .double(Double(Float(value)))
            case .double(let value): return .double(Double(Float(value)))
            default: throw CoercionError(description: "\(self) is not a number")
            }
        case .boolean:
            guard case .bool = self else { throw CoercionError(description: "\(self) is not a boolean") }
            return self
        case .string, .uri:
            guard case .string = self else { throw CoercionError(description: "\(self) is not a string") }
            return self
        case .uuid:
            switch self {
            case .uuid(let text), .string(let text):
                guard let uuid = UUID(uuidString: text) else { throw CoercionError(description: "'\(text)' is not a UUID") }
                return .uuid(uuid.uuidString)
            default: throw CoercionError(description: "\(self) is not a UUID string")
            }
        case .date:
            switch self {
            case .date: return self
            case .integer(let value): return .date(secondsSinceReferenceDate: Double(value))
            case .double(let value): return .date(secondsSinceReferenceDate: value)
            case .string(let text):
                guard let seconds = ISO8601DateTime.secondsSinceReferenceDate(iso8601: text, allowingDateAlone: true) else {
                    throw CoercionError(description: "'\(text)' is not an ISO 8601 date such as 2024-05-01T12:00:00Z "
                        + "(or 2024-05-01 for midnight UTC)")
                }
                return .date(secondsSinceReferenceDate: seconds)
            default: throw CoercionError(description: "\(self) is not a date")
            }
        case .binary, .transformable:
            guard case .binary = self else { throw CoercionError(description: "\(self) is not binary data (write it as !!binary base64)") }
            return self
        default:
            throw CoercionError(description: "scenarios cannot give values to \(type.xmlName) attributes")
        }
    }

    public var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): value ? "true" : "false"
        case .integer(let value): String(value)
        case .double(let value): String(value)
        case .string(let value): "'\(value)'"
        case .uuid(let value): value
        case .date(let seconds): ISO8601DateTime.string(secondsSinceReferenceDate: seconds) ?? "\(seconds) seconds since 2001-01-01T00:00:00Z"
        case .binary(let bytes): "base64:" + bytes.base64EncodedString()
        }
    }

    /// The date a store answered as an ISO 8601 date and time (`2024-05-01T12:00:00Z`,
    /// fractional seconds and a `±hh:mm` offset allowed), or nil for anything else — a date
    /// alone, a space for the `T`, slashes, a time zone name, anything after the zone: a store
    /// that answers `2024-05-01 12:34` is not read as midnight (contract §5).
    public static func date(fromISO8601DateTime text: String) -> AttributeValue? {
        ISO8601DateTime.secondsSinceReferenceDate(iso8601: text, allowingDateAlone: false).map { .date(secondsSinceReferenceDate: $0) }
    }
}

extension AttributeValue: Codable {
    /// Binary values travel as `{"base64": "…"}`: a bare string would read as a String value.
    private enum BinaryKey: String, CodingKey {
        case base64
    }

    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: BinaryKey.self) {
            let text = try object.decode(String.self, forKey: .base64)
            guard let bytes = Data(base64Encoded: text) else {
                throw DecodingError.dataCorruptedError(forKey: .base64, in: object, debugDescription: "'\(text)' is not base64")
            }
            self = .binary(bytes)
            return
        }
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .double(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        if case .binary(let bytes) = self {
            var object = encoder.container(keyedBy: BinaryKey.self)
            try object.encode(bytes.base64EncodedString(), forKey: .base64)
            return
        }
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value), .uuid(let value): try container.encode(value)
        case .date(let seconds):
            guard let text = ISO8601DateTime.string(secondsSinceReferenceDate: seconds) else {
                throw EncodingError.invalidValue(self, EncodingError.Context(
                    codingPath: encoder.codingPath,
                    debugDescription: "the date \(seconds) seconds since 2001-01-01 lies outside the years 0000–9999 "
                        + "that an ISO 8601 date and time spells"))
            }
            try container.encode(text)
        case .binary: break
        }
    }
}

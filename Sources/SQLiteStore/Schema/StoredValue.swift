import Conformance
import DataModel
import Foundation
import GRDB

/// How attribute values are written to and read from their columns, by attribute type, as
/// Core Data's SQLite store does (docs/coredata-semantics.md §7, INFERRED): integers and booleans as INTEGER, dates
/// as REAL seconds since 2001-01-01, UUIDs as 16-byte BLOBs, numbers as REAL, Binary and
/// Transformable values as the BLOB bytes themselves.
///
/// Nothing read is dropped: a BLOB is kept as `.binary` whatever the attribute's type, so a
/// value momlint does not interpret (a Transformable's archive, an external-storage reference)
/// is written back byte for byte.
enum StoredValue {
    static func databaseValue(_ value: AttributeValue) -> DatabaseValue {
        switch value {
        case .null: .null
        case .bool(let flag): (flag ? 1 : 0).databaseValue
        case .integer(let number): number.databaseValue
        case .double(let number): number.databaseValue
        case .string(let text): text.databaseValue
        case .uuid(let text):
            UUID(uuidString: text).map { uuid in withUnsafeBytes(of: uuid.uuid) { Data($0) }.databaseValue } ?? text.databaseValue
        case .date(let seconds): seconds.databaseValue
        case .binary(let bytes): bytes.databaseValue
        }
    }

    /// The value a column holds, read as `type`. Column affinity may have turned a whole REAL
    /// into an INTEGER (DECIMAL has NUMERIC affinity), so numbers are converted by type, not
    /// by storage class. A value the type cannot hold as it is — a fraction or a number beyond
    /// 64 bits in an integer column, a Boolean other than 0 or 1, as another writer may have
    /// left — is kept as stored rather than rounded.
    ///
    /// A Float attribute reads as the 32-bit float it is (its generated Swift type is `Float`,
    /// docs/coredata-semantics.md §5; contract §5), though its column is FLOAT like a Double's:
    /// a value with more digits — an integer beyond 2^24 or a Double's digits that a migration
    /// to Float copied in, as Core Data's in-place SQL migration does — reads rounded, and the
    /// file keeps it until the attribute is set.
    static func attributeValue(_ stored: DatabaseValue, as type: AttributeType) -> AttributeValue {
        switch (stored.storage, type) {
        case (.null, _): return .null
        case (.int64(let number), .boolean): return number == 0 || number == 1 ? .bool(number == 1) : .integer(number)
        case (.int64(let number), _) where type.isInteger: return .integer(number)
        case (.int64(let number), .date): return date(Double(number))
        case (.int64(let number), .float): return .double(Double(Float(number)))
        case (.int64(let number), _): return .double(Double(number))
        case (.double(let number), .date): return date(number)
        case (.double(let number), _) where type.isInteger: return Int64(exactly: number).map(AttributeValue.integer) ?? .double(number)
        case (.double(let number), .float): return .double(Double(Float(number)))
        case (.double(let number), _): return .double(number)
        case (.string(let text), .uuid): return .uuid(text)
        case (.string(let text), _): return .string(text)
        case (.blob(let bytes), .uuid) where bytes.count == 16:
            let uuid = bytes.withUnsafeBytes { UUID(uuid: $0.loadUnaligned(as: uuid_t.self)) }
            return .uuid(uuid.uuidString)
        case (.blob(let bytes), _): return .binary(bytes)
        }
    }
}

extension StoredValue {
    /// A TIMESTAMP as a date when ISO 8601 can write it; otherwise (infinity, a value another
    /// writer left) the number itself, which the formatter would turn into a wrong year.
    private static func date(_ seconds: Double) -> AttributeValue {
        ISO8601DateTime.writableSeconds.contains(seconds) ? .date(secondsSinceReferenceDate: seconds) : .double(seconds)
    }
}

/// The value a new object's attribute starts with: the model's `defaultValueString` (or
/// `defaultDateTimeInterval` for a date) read as the attribute's type, or null.
enum DefaultValue {
    struct ParseError: Error, CustomStringConvertible {
        var description: String
    }

    static func parse(_ attribute: Attribute, type: AttributeType) throws(ParseError) -> AttributeValue {
        if type == .date {
            guard let text = attribute.defaultDateTimeInterval ?? attribute.defaultValueString else { return .null }
            guard let seconds = Double(text) else { throw ParseError(description: "'\(text)' is not a number of seconds") }
            return .date(secondsSinceReferenceDate: seconds)
        }
        guard let text = attribute.defaultValueString else { return .null }
        let raw: AttributeValue
        switch type {
        case .integer16, .integer32, .integer64:
            guard let number = Int64(text) ?? Double(text).flatMap({ Int64(exactly: $0) }) else {
                throw ParseError(description: "'\(text)' is not a whole number")
            }
            raw = .integer(number)
        case .double, .float, .decimal:
            guard let number = Double(text) else { throw ParseError(description: "'\(text)' is not a number") }
            raw = .double(number)
        case .boolean:
            switch text.uppercased() {
            case "YES", "TRUE", "1": raw = .bool(true)
            case "NO", "FALSE", "0": raw = .bool(false)
            default: throw ParseError(description: "'\(text)' is not YES or NO")
            }
        case .string, .uri: raw = .string(text)
        case .uuid: raw = .uuid(text)
        default:
            // Binary, Transformable and the like have defaults no scenario can express; the
            // store starts them null rather than guess at an encoding.
            return .null
        }
        do {
            return try raw.coerced(to: type)
        } catch {
            throw ParseError(description: error.description)
        }
    }
}

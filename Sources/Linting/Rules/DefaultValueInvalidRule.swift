import DataModel
import Foundation

/// A default value, minimum or maximum that does not parse for the attribute's type, lies
/// outside the type's range, or contradicts the other bounds.
public struct DefaultValueInvalidRule: Rule {
    public static let description = RuleDescription(
        id: "default_value_invalid",
        name: "Invalid Default Value",
        summary: "A default value, minimum or maximum does not parse for the type, lies outside its range, or contradicts the other bounds.",
        rationale: """
            Core Data parses `defaultValueString`, `minValueString` and `maxValueString` for the \
            attribute's type when the model is compiled and loaded. How is not documented; the readings \
            below are inferred from Foundation's documented string conversions, which are lenient: \
            `NSString.boolValue` is true for a string starting with Y, y, T, t or a digit 1-9 and false \
            otherwise, and `longLongValue`/`doubleValue` read the leading number, 0 when there is none. \
            A UUID has no lenient reading: `UUID(uuidString:)` returns nil for anything but 32 \
            hexadecimal digits in 8-4-4-4-12 groups, so such a default is lost. Validation checks \
            numbers and dates against the minimum and maximum (errors 1610-1640) and string lengths \
            against them (1660/1670).

            Default severity: error, for the findings that make saves fail; the others are warnings. \
            **Error**, because saves fail: a minimum above the maximum (no value passes validation), a default outside the bounds (every new object that keeps its \
            default fails validation), and a default that cannot be read at all (a UUID) on a required \
            attribute (new objects that rely on it are saved without a value and fail with 1570). \
            **Warning**, because the model builds and loads and Core Data reads some value, just not \
            the written one or not in the form Xcode writes: `YES`/`NO` on an integer (read as 0), `0.0` \
            or `100` on a Boolean (read as NO and YES), text on a number (read as 0), a number outside \
            the type's range (truncated), a length bound that is not a length, and an unreadable UUID \
            default on an optional attribute (the attribute starts as nil). Integral decimals such as \
            `0.0` on an integer type are what Xcode keeps when a Double becomes an integer; they are \
            read exactly and not reported.

            On a SwiftData model the default is the property's initial value, a Swift literal the \
            compiler checks against the Swift type (`UInt64` holds 0...18446744073709551615 though \
            Core Data's integers are signed; see `unsigned_integer_attribute`). Every literal form \
            counts (`0x1F`, `0o17`, `0b1010`, `1_000`, `0x1p-2`, `1e3`); an initial value that is not \
            a literal is not checked. **Error**: an integer literal outside the type's range, which \
            does not compile. **Warning**: a floating-point literal beyond the type's largest value, \
            which compiles with a warning and stores infinity.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsattributedescription/defaultvalue",
            "https://developer.apple.com/documentation/foundation/nsstring/boolvalue",
            "https://developer.apple.com/documentation/foundation/nsstring/longlongvalue",
            "https://developer.apple.com/documentation/foundation/nsstring/doublevalue",
            "https://developer.apple.com/documentation/foundation/uuid/init(uuidstring:)",
            "https://developer.apple.com/documentation/coredata/nspropertydescription/setvalidationpredicates(_:withvalidationwarnings:)",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/ObjectValidation.html",
            "docs/coredata-semantics.md §2 Checks, §5 Attribute types",
        ],
        howToFix: """
            Write the value in the type's own form and range (`-32768...32767` for Integer 16, `YES`/`NO` \
            for Boolean, seconds since 2001 for a Date, a length for String bounds), keep the minimum at \
            or below the maximum, and the default between them.
            """,
        category: .types,
        defaultSeverity: .error,
        triggeringExamples: [
            // Errors: saves fail.
            RuleExample("""
                <entity name="Account">
                    ↓<attribute name="age" optional="YES" attributeType="Integer 32" minValueString="18" maxValueString="10" usesScalarValueType="YES"/>
                    ↓<attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="0" minValueString="1" maxValueString="5" usesScalarValueType="YES"/>
                    ↓<attribute name="token" attributeType="UUID" defaultValueString="empy" usesScalarValueType="NO"/>
                </entity>
                """),
            // Warnings: read as some other value than the one written.
            RuleExample("""
                <entity name="Account">
                    ↓<attribute name="level" optional="YES" attributeType="Integer 16" defaultValueString="40000" usesScalarValueType="YES"/>
                    ↓<attribute name="codec" optional="YES" attributeType="Integer 32" defaultValueString="YES" usesScalarValueType="YES"/>
                    ↓<attribute name="balance" optional="YES" attributeType="Double" defaultValueString="none" usesScalarValueType="YES"/>
                    ↓<attribute name="isActive" optional="YES" attributeType="Boolean" defaultValueString="maybe" usesScalarValueType="YES"/>
                    ↓<attribute name="isMuted" optional="YES" attributeType="Boolean" defaultValueString="0.0" usesScalarValueType="YES"/>
                    ↓<attribute name="code" optional="YES" attributeType="String" minValueString="-1"/>
                    ↓<attribute name="draftToken" optional="YES" attributeType="UUID" defaultValueString="empy" usesScalarValueType="NO"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Account">
                    <attribute name="level" optional="YES" attributeType="Integer 16" defaultValueString="1" minValueString="1" maxValueString="99" usesScalarValueType="YES"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <attribute name="balance" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <attribute name="isActive" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
                    <attribute name="isHidden" optional="YES" attributeType="Boolean" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="code" optional="YES" attributeType="String" minValueString="2" maxValueString="8" defaultValueString="AB"/>
                    <attribute name="opened" optional="YES" attributeType="Date" defaultDateTimeInterval="631152000" usesScalarValueType="NO"/>
                    <attribute name="token" optional="YES" attributeType="UUID" defaultValueString="E621E1F8-C36C-495A-93FC-0C247A3E6E5F" usesScalarValueType="NO"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: an attribute with no default and no bounds has nothing to check.
        let candidates = model.declaredAttributes { $0.hasDefaultOrBounds }
        let wording = ModelWording(model.model)
        return candidates.compactMap { declared in
            // A SwiftData initial value is Swift code the compiler checks, not a string Core Data
            // reads leniently: its own problems, in Swift's terms.
            let problems = wording.isSwiftData
                ? Self.swiftProblems(with: declared.attribute, swiftType: wording.typeName(of: declared.attribute))
                : Self.problems(with: declared.attribute)
            guard !problems.isEmpty else { return nil }
            let typeName = wording.typeName(of: declared.attribute)
            var fixes: [String] = []
            if problems.contains(where: { !$0.isAboutBounds }) {
                fixes.append(wording.isSwiftData ? "write a value \(typeName) can hold" : "write values the \(typeName) type can hold")
            }
            if problems.contains(where: \.isAboutBounds) { fixes.append("keep the minimum at or below the maximum and the default between them") }
            return declared.violation("'\(declared.qualifiedName)' " + problems.map(\.text).joined(separator: "; ")
                + "; " + fixes.joined(separator: ", and "), severity: problems.map(\.severity).max())
        }
    }

    /// One thing wrong with an attribute's values, as a phrase that follows its name.
    struct Problem {
        var text: String
        /// True when each value is fine on its own but they contradict each other.
        var isAboutBounds = false
        /// `error` when saves fail because of it; `warning` when Core Data reads some value.
        var severity: Severity = .warning
    }

    /// What is wrong with the attribute's default and bounds.
    static func problems(with attribute: Attribute) -> [Problem] {
        guard let type = attribute.attributeType else { return [] }
        switch type {
        case .integer16, .integer32, .integer64:
            let range = type.integerRange!
            return numericProblems(attribute, typeName: type.xmlName) { text in
                // Xcode keeps "0.0" when a Double becomes an integer; Core Data reads it as 0.
                guard let value = Int64(text) ?? Double(text).flatMap({ $0 == $0.rounded() ? Int64(exactly: $0) : nil })
                else {
                    // A whole number too long for Int64 is still a number, just out of range.
                    let digits = text.drop { $0 == "-" || $0 == "+" }
                    return !digits.isEmpty && digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber)
                        ? .outOfRange("\(range.lowerBound)...\(range.upperBound)")
                        : .unparsable(reading: format(LenientReading.leadingNumber(text, integral: true)))
                }
                return range.contains(value) ? .value(Double(value)) : .outOfRange("\(range.lowerBound)...\(range.upperBound)")
            }
        case .double, .decimal, .float:
            // Every finite Double is a Double or Decimal value; a Float holds less.
            let largest = type == .float ? Double(Float.greatestFiniteMagnitude) : Double.greatestFiniteMagnitude
            return numericProblems(attribute, typeName: type.xmlName) { text in
                guard let value = Double(text), value.isFinite else {
                    return .unparsable(reading: format(LenientReading.leadingNumber(text, integral: false)))
                }
                return abs(value) <= largest ? .value(value) : .outOfRange("Float's range")
            }
        case .date:
            var problems: [Problem] = []
            var values = Bounds()
            // One call per field rather than a loop over a list of them: this runs for every
            // attribute with a default or bounds, and the list was an allocation each time.
            func read(_ bound: Bound, _ text: String?) {
                guard let text else { return }
                if let value = Double(text), value.isFinite { values[bound] = value } else {
                    problems.append(Problem(text: "has \(bound.rawValue) date '\(text)', which is not a number of seconds since 2001 "
                        + "(read as \(format(LenientReading.leadingNumber(text, integral: false)))"))
                }
            }
            read(.defaultValue, attribute.defaultDateTimeInterval)
            read(.minimum, attribute.minDateTimeInterval)
            read(.maximum, attribute.maxDateTimeInterval)
            return problems + boundProblems(values, unit: "")
        case .string:
            // A default's length is checked only against bounds.
            let minimum = attribute.minValueString, maximum = attribute.maxValueString
            guard minimum != nil || maximum != nil else { return [] }
            var problems: [Problem] = []
            var lengths = Bounds()
            func read(_ bound: Bound, _ text: String?) {
                guard let text else { return }
                if let length = Int(text), length >= 0 { lengths[bound] = Double(length) } else {
                    problems.append(Problem(text: "has \(bound.rawValue) length '\(text)', which is not a length (a whole number of at least 0)"))
                }
            }
            read(.minimum, minimum)
            read(.maximum, maximum)
            if let text = attribute.defaultValueString {
                lengths[.defaultValue] = Double(text.count)
            }
            return problems + boundProblems(lengths, unit: " length")
        case .boolean:
            guard let text = attribute.defaultValueString, !Self.booleanSpellings.contains(text.lowercased())
            else { return [] }
            let reading = LenientReading.boolean(text) ? "YES" : "NO"
            return [Problem(text: "has default '\(text)', which is not a Boolean (YES or NO); Core Data reads it as \(reading)")]
        case .uuid:
            guard let text = attribute.defaultValueString, !isUUID(text) else { return [] }
            // No reading of a UUID is lenient: the default is lost, and a required attribute
            // that relies on it is saved without a value.
            if !attribute.isOptional && !attribute.isTransient {
                return [Problem(text: "has default '\(text)', which is not a UUID, so it has no default and every new "
                    + "object that does not set it fails to save (1570)", severity: .error)]
            }
            return [Problem(text: "has default '\(text)', which is not a UUID, so it starts as nil")]
        default:
            return []
        }
    }

    /// What is wrong with a SwiftData property's initial value, which the reader keeps as the
    /// decimal value of its literal (`0o77` as 63) and leaves out when it is not a literal.
    /// Swift judges a literal against the property's Swift type, not the Core Data type that
    /// stores it: an integer literal outside the type's range does not compile ("integer literal
    /// overflows when stored into 'Int16'"), and a floating-point literal beyond the type's
    /// largest value compiles with a warning ("overflows to inf") and stores infinity.
    static func swiftProblems(with attribute: Attribute, swiftType: String) -> [Problem] {
        guard let text = attribute.defaultValueString, let type = attribute.attributeType else { return [] }
        let name = swiftType.hasPrefix("Swift.") ? String(swiftType.dropFirst("Swift.".count)) : swiftType
        if let bounds = SwiftIntegerBounds.byTypeName[name] {
            guard let fits = bounds.contains(text), !fits else { return [] }
            return [Problem(text: "has initial value \(text), outside \(name)'s range \(bounds.lowest)...\(bounds.highest), "
                + "so it does not compile (the integer literal overflows)", severity: .error)]
        }
        let largest: Double
        switch type {
        case .double, .decimal: largest = Double.greatestFiniteMagnitude
        case .float: largest = Double(Float.greatestFiniteMagnitude)
        default: return []
        }
        guard let value = Double(text), !(value.isFinite && abs(value) <= largest) else { return [] }
        return [Problem(text: "has initial value \(text), which overflows \(name) to infinity (Swift warns and stores "
            + "infinity)")]
    }

    enum ParsedValue {
        case value(Double)
        /// Not the type's form; `reading` is what Core Data makes of it (inferred).
        case unparsable(reading: String)
        case outOfRange(String)
    }

    private static func numericProblems(_ attribute: Attribute, typeName: String,
                                        parse: (String) -> ParsedValue) -> [Problem] {
        var problems: [Problem] = []
        var values = Bounds()
        func read(_ bound: Bound, _ text: String?) {
            guard let text else { return }
            switch parse(text) {
            case .value(let value): values[bound] = value
            case .unparsable(let reading):
                problems.append(Problem(text: "has \(bound.rawValue) '\(text)', which is not a valid \(typeName) (read as \(reading))"))
            case .outOfRange(let range):
                problems.append(Problem(text: "has \(bound.rawValue) \(text), outside \(typeName)'s range \(range), so it is truncated"))
            }
        }
        read(.defaultValue, attribute.defaultValueString)
        read(.minimum, attribute.minValueString)
        read(.maximum, attribute.maxValueString)
        return problems + boundProblems(values, unit: "")
    }

    /// The spellings of a Boolean default that Core Data reads as written (lowercased).
    private static let booleanSpellings: Set<String> = ["yes", "no", "true", "false", "1", "0"]

    /// One of the values an attribute may bound itself by; the raw value is the word the
    /// messages use.
    private enum Bound: String {
        case defaultValue = "default"
        case minimum
        case maximum
    }

    /// The default, minimum and maximum read so far. A struct, not a dictionary: this runs for
    /// every attribute that sets any of them.
    private struct Bounds {
        var defaultValue: Double?
        var minimum: Double?
        var maximum: Double?

        subscript(bound: Bound) -> Double? {
            get {
                switch bound {
                case .defaultValue: defaultValue
                case .minimum: minimum
                case .maximum: maximum
                }
            }
            set {
                switch bound {
                case .defaultValue: defaultValue = newValue
                case .minimum: minimum = newValue
                case .maximum: maximum = newValue
                }
            }
        }
    }

    /// Minimum above maximum, and a default outside them.
    private static func boundProblems(_ values: Bounds, unit: String) -> [Problem] {
        var problems: [String] = []
        let minimum = values.minimum, maximum = values.maximum
        if let minimum, let maximum, minimum > maximum {
            problems.append("has minimum\(unit) \(format(minimum)) above maximum\(unit) \(format(maximum)), so no value is valid")
            return problems.map { Problem(text: $0, isAboutBounds: true, severity: .error) }
        }
        if let value = values.defaultValue {
            if let minimum, value < minimum {
                problems.append("has a default\(unit) of \(format(value)), below its minimum\(unit) \(format(minimum)), so new objects fail validation")
            } else if let maximum, value > maximum {
                problems.append("has a default\(unit) of \(format(value)), above its maximum\(unit) \(format(maximum)), so new objects fail validation")
            }
        }
        return problems.map { Problem(text: $0, isAboutBounds: true, severity: .error) }
    }

    static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `8-4-4-4-12` hexadecimal digits, as `UUID(uuidString:)` accepts.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

/// The range of each of Swift's integer types, by name, for SwiftData initial values.
struct SwiftIntegerBounds {
    var lowest: Int64
    var highest: UInt64

    static let byTypeName: [String: SwiftIntegerBounds] = [
        "Int": .init(lowest: Int64.min, highest: UInt64(Int64.max)),
        "Int64": .init(lowest: Int64.min, highest: UInt64(Int64.max)),
        "Int32": .init(lowest: Int64(Int32.min), highest: UInt64(Int32.max)),
        "Int16": .init(lowest: Int64(Int16.min), highest: UInt64(Int16.max)),
        "Int8": .init(lowest: Int64(Int8.min), highest: UInt64(Int8.max)),
        "UInt": .init(lowest: 0, highest: UInt64.max),
        "UInt64": .init(lowest: 0, highest: UInt64.max),
        "UInt32": .init(lowest: 0, highest: UInt64(UInt32.max)),
        "UInt16": .init(lowest: 0, highest: UInt64(UInt16.max)),
        "UInt8": .init(lowest: 0, highest: UInt64(UInt8.max)),
    ]

    /// Whether the whole number `text` (decimal, optionally negative) is in range; nil when it is
    /// not a whole number.
    func contains(_ text: String) -> Bool? {
        let isNegative = text.hasPrefix("-")
        let digits = isNegative ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        // More digits than UInt64 holds is out of every range.
        guard let magnitude = UInt64(digits) else { return false }
        return isNegative ? magnitude == 0 || magnitude <= lowest.magnitude : magnitude <= highest
    }
}

/// What Foundation's lenient string conversions make of a string that is not in a type's form:
/// how Core Data most likely reads such a default (inferred; the conversions themselves are
/// documented on `NSString.boolValue`, `longLongValue` and `doubleValue`).
enum LenientReading {
    /// `boolValue`: true on Y, y, T, t or a digit 1-9 after leading whitespace, an optional sign
    /// and zeros; false otherwise.
    static func boolean(_ text: String) -> Bool {
        var rest = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        if let first = rest.first, first == "+" || first == "-" { rest = rest.dropFirst() }
        rest = rest.drop { $0 == "0" }
        guard let first = rest.first else { return false }
        return "YyTt123456789".contains(first)
    }

    /// `longLongValue` (integral) or `doubleValue`: the leading decimal number after leading
    /// whitespace, 0 when there is none.
    static func leadingNumber(_ text: String, integral: Bool) -> Double {
        let trimmed = Substring(text).drop { $0 == " " || $0 == "\t" || $0 == "\n" }
        var end = trimmed.startIndex
        var best = 0.0
        while end < trimmed.endIndex {
            end = trimmed.index(after: end)
            let prefix = String(trimmed[..<end])
            if integral {
                if let value = Int64(prefix) { best = Double(value) } else if prefix != "-" && prefix != "+" { break }
            } else if let value = Double(prefix), value.isFinite {
                best = value
            } else if !["-", "+", ".", "-.", "+."].contains(prefix) && !prefix.hasSuffix("e") && !prefix.hasSuffix("E")
                        && !prefix.hasSuffix("e-") && !prefix.hasSuffix("e+") {
                break
            }
        }
        return best
    }
}

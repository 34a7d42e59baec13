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
            attribute's type when the model loads: a value that does not parse is dropped silently (the \
            attribute then has no default, or no bound), and a value outside the type's range (40000 for \
            Integer 16) is truncated. Validation checks numbers and dates against the minimum and maximum \
            (errors 1610-1640) and string lengths against them (1660/1670), so a minimum above the maximum \
            rejects every value, and a default outside the bounds makes every new object that keeps its \
            default fail to save.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsattributedescription/defaultvalue",
            "https://developer.apple.com/documentation/coredata/nspropertydescription/setvalidationpredicates(_:withvalidationwarnings:)",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/ObjectValidation.html",
            "../shared/reference/coredata-behaviour.md §2 Checks, §5 Attribute types",
        ],
        howToFix: """
            Write the value in the type's own form and range (`-32768...32767` for Integer 16, `YES`/`NO` \
            for Boolean, seconds since 2001 for a Date, a length for String bounds), keep the minimum at \
            or below the maximum, and the default between them.
            """,
        category: .types,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Account">
                    ↓<attribute name="level" optional="YES" attributeType="Integer 16" defaultValueString="40000" usesScalarValueType="YES"/>
                    ↓<attribute name="balance" optional="YES" attributeType="Double" defaultValueString="none" usesScalarValueType="YES"/>
                    ↓<attribute name="age" optional="YES" attributeType="Integer 32" minValueString="18" maxValueString="10" usesScalarValueType="YES"/>
                    ↓<attribute name="rating" optional="YES" attributeType="Integer 16" defaultValueString="0" minValueString="1" maxValueString="5" usesScalarValueType="YES"/>
                    ↓<attribute name="isActive" optional="YES" attributeType="Boolean" defaultValueString="maybe" usesScalarValueType="YES"/>
                    ↓<attribute name="code" optional="YES" attributeType="String" minValueString="-1"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Account">
                    <attribute name="level" optional="YES" attributeType="Integer 16" defaultValueString="1" minValueString="1" maxValueString="99" usesScalarValueType="YES"/>
                    <attribute name="balance" optional="YES" attributeType="Double" defaultValueString="0.0" usesScalarValueType="YES"/>
                    <attribute name="isActive" optional="YES" attributeType="Boolean" defaultValueString="YES" usesScalarValueType="YES"/>
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
        return candidates.compactMap { declared in
            let problems = Self.problems(with: declared.attribute)
            guard !problems.isEmpty else { return nil }
            // Problems name the type as Core Data does; a SwiftData model's author knows it by its Swift name.
            let wording = ModelWording(model.model)
            let typeName = wording.typeName(of: declared.attribute)
            let xmlName = declared.attribute.attributeType?.xmlName ?? typeName
            var fixes: [String] = []
            if problems.contains(where: { !$0.isAboutBounds }) { fixes.append("write values the \(typeName) type can hold") }
            if problems.contains(where: \.isAboutBounds) { fixes.append("keep the minimum at or below the maximum and the default between them") }
            let texts = problems.map { wording.isSwiftData ? $0.text.replacingOccurrences(of: xmlName, with: typeName) : $0.text }
            return declared.violation("'\(declared.qualifiedName)' " + texts.joined(separator: "; ")
                + "; " + fixes.joined(separator: ", and "))
        }
    }

    /// One thing wrong with an attribute's values, as a phrase that follows its name.
    struct Problem {
        var text: String
        /// True when each value is fine on its own but they contradict each other.
        var isAboutBounds = false
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
                        ? .outOfRange("\(range.lowerBound)...\(range.upperBound)") : .unparsable
                }
                return range.contains(value) ? .value(Double(value)) : .outOfRange("\(range.lowerBound)...\(range.upperBound)")
            }
        case .double, .decimal:
            return numericProblems(attribute, typeName: type.xmlName) { text in
                guard let value = Double(text), value.isFinite else { return .unparsable }
                return .value(value)
            }
        case .float:
            return numericProblems(attribute, typeName: type.xmlName) { text in
                guard let value = Double(text), value.isFinite else { return .unparsable }
                return abs(value) <= Double(Float.greatestFiniteMagnitude) ? .value(value) : .outOfRange("Float's range")
            }
        case .date:
            var problems: [Problem] = []
            var values = Bounds()
            for (label, text) in [("default", attribute.defaultDateTimeInterval), ("minimum", attribute.minDateTimeInterval),
                                  ("maximum", attribute.maxDateTimeInterval)] {
                guard let text else { continue }
                if let value = Double(text), value.isFinite { values[label] = value } else {
                    problems.append(Problem(text: "has \(label) date '\(text)', which is not a number of seconds since 2001"))
                }
            }
            return problems + boundProblems(values, unit: "")
        case .string:
            var problems: [Problem] = []
            var lengths = Bounds()
            for (label, text) in [("minimum", attribute.minValueString), ("maximum", attribute.maxValueString)] {
                guard let text else { continue }
                if let length = Int(text), length >= 0 { lengths[label] = Double(length) } else {
                    problems.append(Problem(text: "has \(label) length '\(text)', which is not a length (a whole number of at least 0)"))
                }
            }
            if let text = attribute.defaultValueString {
                lengths["default"] = Double(text.count)
            }
            return problems + boundProblems(lengths, unit: " length")
        case .boolean:
            guard let text = attribute.defaultValueString,
                  !["yes", "no", "true", "false", "1", "0"].contains(text.lowercased())
            else { return [] }
            return [Problem(text: "has default '\(text)', which is not a Boolean (YES or NO)")]
        case .uuid:
            guard let text = attribute.defaultValueString, !isUUID(text) else { return [] }
            return [Problem(text: "has default '\(text)', which is not a UUID")]
        default:
            return []
        }
    }

    enum ParsedValue {
        case value(Double)
        case unparsable
        case outOfRange(String)
    }

    private static func numericProblems(_ attribute: Attribute, typeName: String,
                                        parse: (String) -> ParsedValue) -> [Problem] {
        var problems: [Problem] = []
        var values = Bounds()
        for (label, text) in [("default", attribute.defaultValueString), ("minimum", attribute.minValueString),
                              ("maximum", attribute.maxValueString)] {
            guard let text else { continue }
            switch parse(text) {
            case .value(let value): values[label] = value
            case .unparsable: problems.append(Problem(text: "has \(label) '\(text)', which is not a valid \(typeName)"))
            case .outOfRange(let range): problems.append(Problem(text: "has \(label) \(text), outside \(typeName)'s range \(range)"))
            }
        }
        return problems + boundProblems(values, unit: "")
    }

    /// The default, minimum and maximum read so far, by the label the messages use. A struct,
    /// not a dictionary: this runs for every attribute that sets any of them.
    private struct Bounds {
        var defaultValue: Double?
        var minimum: Double?
        var maximum: Double?

        subscript(label: String) -> Double? {
            get {
                switch label {
                case "default": defaultValue
                case "minimum": minimum
                default: maximum
                }
            }
            set {
                switch label {
                case "default": defaultValue = newValue
                case "minimum": minimum = newValue
                default: maximum = newValue
                }
            }
        }
    }

    /// Minimum above maximum, and a default outside them.
    private static func boundProblems(_ values: Bounds, unit: String) -> [Problem] {
        var problems: [String] = []
        let minimum = values["minimum"], maximum = values["maximum"]
        if let minimum, let maximum, minimum > maximum {
            problems.append("has minimum\(unit) \(format(minimum)) above maximum\(unit) \(format(maximum)), so no value is valid")
            return problems.map { Problem(text: $0, isAboutBounds: true) }
        }
        if let value = values["default"] {
            if let minimum, value < minimum {
                problems.append("has a default\(unit) of \(format(value)), below its minimum\(unit) \(format(minimum)), so new objects fail validation")
            } else if let maximum, value > maximum {
                problems.append("has a default\(unit) of \(format(value)), above its maximum\(unit) \(format(maximum)), so new objects fail validation")
            }
        }
        return problems.map { Problem(text: $0, isAboutBounds: true) }
    }

    private static func format(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// `8-4-4-4-12` hexadecimal digits, as `UUID(uuidString:)` accepts.
    static func isUUID(_ text: String) -> Bool {
        let groups = text.split(separator: "-", omittingEmptySubsequences: false)
        return groups.map(\.count) == [8, 4, 4, 4, 12] && groups.allSatisfy { $0.allSatisfy(\.isHexDigit) }
    }
}

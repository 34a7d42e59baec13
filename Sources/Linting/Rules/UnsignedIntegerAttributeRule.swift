import DataModel

/// A SwiftData property declared with an unsigned integer type, which no Core Data attribute type
/// stores as such.
public struct UnsignedIntegerAttributeRule: Rule {
    public static let description = RuleDescription(
        id: "unsigned_integer_attribute",
        name: "Unsigned Integer Attribute",
        summary: "A SwiftData @Model property is declared with an unsigned integer type (UInt, UInt8, UInt16, UInt32, UInt64).",
        rationale: """
            SwiftData keeps every stored property in a Core Data attribute, and Core Data's integer \
            attributes are signed: Integer 16, Integer 32 and Integer 64 hold Int16, Int32 and Int64, \
            and there is no unsigned type. SwiftData accepts unsigned properties (they are reported to \
            build and save), but Apple does not document which attribute type it gives them or what \
            becomes of a value the signed type cannot hold (a UInt64 above Int64.max has no signed \
            64-bit twin at all). momlint reads such a property as the smallest signed integer that \
            holds its range (UInt8 as Integer 16, UInt16 as Integer 32, UInt32, UInt and UInt64 as \
            Integer 64); that mapping, and the risk to large values, are inferred, not documented.

            Default severity: warning. The model builds and runs; only values beyond the signed range \
            are at risk, and how SwiftData treats them is not documented.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsattributetype",
            "https://developer.apple.com/documentation/coredata/nsattributetype/integer64attributetype",
            "docs/coredata-semantics.md §5 Attribute types",
        ],
        howToFix: """
            Declare the smallest signed type that holds the values you need: Int16 for a UInt8, Int32 \
            for a UInt16, Int64 (or Int) for a UInt32. A UInt or UInt64 whose values stay below \
            Int64.max can be an Int64; one that needs the full range (a hash, a bit pattern) is safer \
            stored as a String or Decimal, or as Int64(bitPattern:) behind a computed property.
            """,
        category: .types,
        defaultSeverity: .warning,
        triggeringExamples: [
            // The SwiftData reader records the Swift type of `var port: UInt16` as `swiftType`.
            RuleExample("""
                <entity name="Server">
                    ↓<attribute name="port" attributeType="Integer 32" swiftType="UInt16"/>
                    ↓<attribute name="checksum" optional="YES" attributeType="Integer 64" swiftType="UInt64?"/>
                    ↓<attribute name="flags" attributeType="Integer 64" swiftType="Swift.UInt"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Server">
                    <attribute name="port" attributeType="Integer 32" swiftType="Int32"/>
                    <attribute name="checksum" optional="YES" attributeType="Integer 64" swiftType="Int64?"/>
                    <attribute name="name" optional="YES" attributeType="String" swiftType="UIntName"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64"/>
                </entity>
                """),
        ])

    /// Each unsigned type, the signed type that holds its range (nil: none does), and its maximum.
    static let unsignedTypes: [String: (signed: String?, maximum: String)] = [
        "UInt8": ("Int16", "255"),
        "UInt16": ("Int32", "65535"),
        "UInt32": ("Int64", "4294967295"),
        "UInt64": (nil, "18446744073709551615"),
        "UInt": (nil, "18446744073709551615"),
    ]

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Only the SwiftData reader records Swift types (a model from a contents file has none
        // unless written by hand), and `swiftType` is outside Xcode's grammar: the trait table
        // picks the few integer attributes that carry such a name, without visiting the rest.
        let candidates = model.declaredAttributes {
            $0.attributeType?.isInteger == true && $0.hasXMLAttributesOutsideGrammar
        }
        return candidates.compactMap { declared in
            guard let written = declared.attribute.xmlAttributes[ModelWording.swiftTypeKey] else { return nil }
            var name = written.hasSuffix("?") ? String(written.dropLast()) : written
            if name.hasPrefix("Swift.") { name.removeFirst("Swift.".count) }
            guard let unsigned = Self.unsignedTypes[name] else { return nil }
            let instead = unsigned.signed.map { "declare it '\($0)', which holds every \(name)" }
                ?? "declare it 'Int64' if its values stay below 9223372036854775808, else store it as a String or Decimal"
            return declared.violation(
                "'\(declared.qualifiedName)' is '\(name)', but Core Data stores only signed integers and SwiftData "
                    + "does not document how it keeps an unsigned value (up to \(unsigned.maximum)); \(instead)",
                suggestion: unsigned.signed.map { "declare '\(declared.qualifiedName)' as '\($0)'" })
        }
    }
}

import DataModel

/// An `attributeType` Core Data does not have, such as an unsigned integer.
public struct UnsupportedAttributeTypeRule: Rule {
    public static let description = RuleDescription(
        id: "unsupported_attribute_type",
        name: "Unsupported Attribute Type",
        summary: "An attribute's type is not one Core Data has (for example an unsigned integer).",
        rationale: """
            Core Data's attribute types are a closed list (`NSAttributeDescription.AttributeType`): \
            Integer 16/32/64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, \
            Transformable, ObjectID, Composite and (for transient attributes) Undefined. Its integers \
            are signed, and there is no unsigned or 8-bit integer. A type outside the list fails to \
            compile or load; mapping an unsigned Swift type onto the signed type of the same width \
            loses the upper half of its range, so the replacement must be the signed type that holds \
            the whole range: UInt8 -> Integer 16, UInt16 -> Integer 32, UInt32 -> Integer 64, and \
            UInt64 -> Decimal or String, because no Core Data integer holds it.

            Default severity: error. A type outside the list cannot be compiled or loaded.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsattributetype",
            "https://developer.apple.com/documentation/coredata/nsattributetype/integer64attributetype",
            "docs/coredata-semantics.md §5 Attribute types",
        ],
        howToFix: """
            Use one of Core Data's types. For an unsigned value use the signed type that holds its whole \
            range (UInt16 -> Integer 32, UInt32 -> Integer 64, UInt64 -> Decimal or String) and convert \
            in the managed object subclass.
            """,
        category: .types,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Sensor">
                    ↓<attribute name="port" optional="YES" attributeType="UInt16"/>
                    ↓<attribute name="counter" optional="YES" attributeType="Unsigned Integer 32"/>
                    ↓<attribute name="serial" optional="YES" attributeType="UInt64"/>
                    ↓<attribute name="flags" optional="YES" attributeType="Integer 8"/>
                    ↓<attribute name="label" optional="YES" attributeType="Text"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Sensor">
                    <attribute name="port" optional="YES" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
                    <attribute name="serial" optional="YES" attributeType="Decimal" defaultValueString="0.0"/>
                    <attribute name="label" optional="YES" attributeType="String"/>
                    <attribute name="cache" optional="YES" transient="YES" attributeType="Undefined"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only attributes of a type Core Data lacks are looked at further.
        let candidates = model.declaredAttributes { traits in
            if case .unknown? = traits.attributeType { return true }
            return false
        }
        return candidates.compactMap { declared in
            guard case .unknown(let typeName)? = declared.attribute.attributeType else { return nil }
            let replacement = Self.replacement(for: typeName)
            let advice = replacement.map { "use \($0.typeName) instead" + ($0.reason.map { ", \($0)" } ?? "") }
                ?? "use one of Core Data's types (Integer 16/32/64, Decimal, Double, Float, String, Boolean, Date, Binary, UUID, URI, Transformable)"
            return declared.violation(
                "'\(declared.qualifiedName)' has type '\(typeName)', which Core Data does not have; \(advice)",
                suggestion: replacement.map { "change the type to \($0.typeName)" })
        }
    }

    /// The Core Data type to use instead of an unknown one, and why when it is not obvious.
    struct Replacement: Equatable {
        var typeName: String
        var reason: String?
    }

    /// The Core Data type to use instead of `typeName`, when one is clear. Unsigned and 8-bit
    /// integers map to the smallest signed type holding their whole range.
    static func replacement(for typeName: String) -> Replacement? {
        let key = typeName.lowercased().filter { $0.isLetter || $0.isNumber }
        let bits = Int(String(key.filter(\.isNumber)))
        let letters = key.filter(\.isLetter)
        let unsignedSpellings: Set<String> = ["uint", "unsignedinteger", "unsignedint", "unsigned", "uinteger"]
        let signedSpellings: Set<String> = ["int", "integer", "sint", "signedinteger"]
        if unsignedSpellings.contains(letters) {
            let widest = "the smallest signed type holding every UInt\(bits ?? 64)"
            switch bits {
            case 8?: return Replacement(typeName: "Integer 16", reason: widest)
            case 16?: return Replacement(typeName: "Integer 32", reason: widest)
            case 32?: return Replacement(typeName: "Integer 64", reason: widest)
            case 64?, nil: return Replacement(typeName: "Decimal or String", reason: "since no Core Data integer holds every UInt64")
            default: return nil
            }
        }
        if signedSpellings.contains(letters) {
            switch bits {
            case 8?, 16?: return Replacement(typeName: "Integer 16")
            case 32?: return Replacement(typeName: "Integer 32")
            case 64?, nil: return Replacement(typeName: "Integer 64")
            default: return nil
            }
        }
        let synonyms: [String: String] = [
            "bool": "Boolean", "boolean": "Boolean", "text": "String", "string": "String", "nsstring": "String",
            "data": "Binary", "binarydata": "Binary", "nsdata": "Binary", "blob": "Binary",
            "date": "Date", "nsdate": "Date", "datetime": "Date", "timestamp": "Date",
            "double": "Double", "float": "Float", "decimal": "Decimal", "nsdecimalnumber": "Decimal",
            "uuid": "UUID", "nsuuid": "UUID", "url": "URI", "uri": "URI", "nsurl": "URI",
            "transformable": "Transformable",
        ]
        return synonyms[key].map { Replacement(typeName: $0) }
    }
}

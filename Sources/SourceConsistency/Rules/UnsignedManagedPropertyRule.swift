import DataModel
import Linting

/// An `@NSManaged` property of an unsigned integer type.
public struct UnsignedManagedPropertyRule: SourceRule {
    public static let description = RuleDescription(
        id: "unsigned_managed_property",
        name: "Unsigned Managed Property",
        summary: "An @NSManaged property is declared with an unsigned integer type (UInt, UInt8, UInt16, UInt32, UInt64).",
        rationale: """
            Core Data's integer attributes are signed: "Integer 16", "Integer 32" and "Integer 64" hold \
            Int16, Int32 and Int64, and there is no unsigned type \
            (https://developer.apple.com/documentation/coredata/nsattributetype). The class compiles, but \
            Core Data's dynamically generated accessors do not convert between scalar types, so the first \
            read or write fails at run time ("Property 'setCount:' is a scalar type on class 'Item' that \
            does not match its Entity's property's scalar type. Dynamically generated accessors do not \
            support implicit type coercion", then "unrecognized selector"). Declare the smallest signed \
            type that holds the unsigned type's range, with the attribute type that stores it; no signed \
            integer holds every UInt64, so store those as Decimal or String. \

            Default severity: error. The first read or write through the accessor fails at run time.
            """,
        category: .types,
        defaultSeverity: .error)

    public static let triggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="count" attributeType="Integer 32" usesScalarValueType="YES"/>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {
                    ↓@NSManaged var count: UInt32
                }
                """),
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="level" attributeType="Integer 16" usesScalarValueType="YES"/>
                    <attribute name="checksum" attributeType="Integer 64" usesScalarValueType="YES"/>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {}

                extension Item {
                    ↓@NSManaged public var level: Swift.UInt8
                    ↓@NSManaged public var checksum: UInt
                }
                """),
    ]

    public static let nonTriggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="count" attributeType="Integer 64" usesScalarValueType="YES"/>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {
                    @NSManaged var count: Int64
                    /// Unsigned in the API, signed in the store.
                    var unsignedCount: UInt32 { UInt32(clamping: count) }
                }
                """),
    ]

    public init() {}

    public func violations(in pairing: ModelCodePairing) -> [Violation] {
        var violations: [Violation] = []
        for managedClass in pairing.sources.classes {
            for property in managedClass.properties where property.isManaged {
                guard let type = property.type, type.isUnsignedInteger else { continue }
                violations.append(Self.violation(for: property, type: type))
            }
        }
        return violations
    }

    private static func violation(for property: ManagedProperty, type: SwiftTypeReference) -> Violation {
        let fix: String
        if let signed = SwiftTypeReference.signedType(holding: type.baseName) {
            fix = "declare it '\(signed.swiftName)' over an \(signed.attributeType) attribute, "
                + "the smallest signed type that holds every \(type.baseName)"
        } else {
            fix = "no signed integer holds every \(type.baseName), so store it as Decimal or String"
        }
        return Violation(
            message: "\(property.quotedName) is declared '\(type.spelling)', but Core Data has no unsigned "
                + "integer types; \(fix)",
            location: property.location, entityName: nil, propertyName: property.key,
            suggestion: fix)
    }
}

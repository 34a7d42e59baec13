import DataModel
import Linting

/// An `@NSManaged` property whose Swift type does not match its attribute's type and
/// Use Scalar Type setting.
public struct ScalarTypeMismatchRule: SourceRule {
    public static let description = RuleDescription(
        id: "scalar_type_mismatch",
        name: "Scalar Type Mismatch",
        summary: "An @NSManaged property's Swift type does not match its attribute's type and Use Scalar Type setting.",
        rationale: """
            Core Data generates an @NSManaged property's accessors at run time from the attribute, and \
            "dynamically generated accessors do not support implicit type coercion": an Int over an \
            Integer 16 attribute, a Float over a Double or a Bool over an integer compiles, then fails on \
            first use with "Property 'setCount:' is a scalar type on class 'Item' that does not match its \
            Entity's property's scalar type" and "unrecognized selector". Each attribute type has one \
            Swift type (https://developer.apple.com/documentation/coredata/nsattributetype): Int16, Int32 \
            and Int64 (Int is 64 bits, so it fits Integer 64 only), Float, Double, Bool, Decimal or \
            NSDecimalNumber, Date, Data, UUID, URL and String; an attribute without Use Scalar Type is an \
            NSNumber. Unsigned types are reported by unsigned_managed_property.

            Default severity: error, for a Swift type of another kind or width than the attribute's: \
            the first use fails at run time. When only the form differs — `NSNumber?` where the model \
            says Use Scalar Type, or `Int16` where it does not — the finding is a warning: Use Scalar \
            Type is an option of Xcode's code generation (the Data Model inspector), not of the \
            compiled model, and Core Data's dynamic accessors follow the class's declared type, so both \
            forms work (inferred from Apple's description of the setting as code generation; no document \
            says what the run time does). One of the two is stale all the same, and Xcode's code \
            generation would give the other type.
            """,
        category: .types,
        defaultSeverity: .error)

    public static let triggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="count" attributeType="Integer 16" usesScalarValueType="YES"/>
                    <attribute name="price" attributeType="Double" usesScalarValueType="YES"/>
                    <attribute name="title" attributeType="String"/>
                </entity>
                """#,
            source: """
                import CoreData

                final class Item: NSManagedObject {
                    ↓@NSManaged var count: Int
                    ↓@NSManaged var price: Float
                    ↓@NSManaged var title: Data?
                }
                """),
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName="Item">
                    <attribute name="rating" attributeType="Integer 32" usesScalarValueType="NO"/>
                    <attribute name="isDone" attributeType="Boolean" usesScalarValueType="YES"/>
                </entity>
                """#,
            source: """
                import CoreData

                @objc(Item)
                final class Item: NSManagedObject {
                    ↓@NSManaged var rating: Int32
                    ↓@NSManaged var isDone: NSNumber?
                }
                """),
    ]

    public static let nonTriggeringExamples = [
        SourceRuleExample(
            model: #"""
                <entity name="Item" representedClassName=".Item">
                    <attribute name="count" attributeType="Integer 64" usesScalarValueType="YES"/>
                    <attribute name="total" attributeType="Integer 64" usesScalarValueType="YES"/>
                    <attribute name="rating" attributeType="Integer 32" usesScalarValueType="NO"/>
                    <attribute name="legacy" attributeType="Integer 16"/>
                    <attribute name="price" attributeType="Decimal"/>
                    <attribute name="added" attributeType="Date"/>
                    <attribute name="id" attributeType="UUID"/>
                    <attribute name="link" attributeType="URI"/>
                    <attribute name="tags" attributeType="Transformable"/>
                </entity>
                """#,
            source: """
                import CoreData

                typealias Identifier = UUID

                final class Item: NSManagedObject {
                    @NSManaged var count: Int
                    @NSManaged var total: Swift.Int64
                    @NSManaged var rating: NSNumber?
                    @NSManaged var legacy: Int16
                    @NSManaged var price: NSDecimalNumber?
                    @NSManaged var added: Foundation.Date?
                    @NSManaged var id: Identifier?
                    @NSManaged var link: URL?
                    @NSManaged var tags: [String]?
                }
                """),
    ]

    public init() {}

    public func violations(in pairing: ModelCodePairing) -> [Violation] {
        var violations: [Violation] = []
        for match in pairing.matches {
            for property in match.properties where property.isManaged && property.isWellFormed {
                guard let type = property.type, !type.isUnsignedInteger,
                      let attribute = pairing.entityProperty(for: property, of: match.entity)?.asAttribute,
                      let expected = ExpectedSwiftType(for: attribute), !expected.accepts(type)
                else { continue }
                let owner = pairing.declaringEntity(of: attribute.name, from: match.entity)
                violations.append(Self.violation(for: property, type: type, attribute: attribute,
                                                 owner: owner, expected: expected))
            }
        }
        return violations
    }

    private static func violation(for property: ManagedProperty, type: SwiftTypeReference, attribute: Attribute,
                                  owner: Entity, expected: ExpectedSwiftType) -> Violation {
        let fix: String
        // The right type in the other form (Int16 where the model says NSNumber, or the
        // reverse) has two fixes; say both.
        let sameKindOtherForm = expected.hasScalarForm
            && (type.baseName == "NSNumber" || expected.scalarForm.contains(type.baseName))
        if sameKindOtherForm, expected.usesScalarValueType == true {
            fix = "declare it '\(expected.scalarNames[0])', or turn off Use Scalar Type on the attribute"
        } else if sameKindOtherForm, expected.usesScalarValueType == false {
            fix = "declare it 'NSNumber?', or turn on Use Scalar Type on the attribute"
        } else {
            fix = "declare it '\(expected.suggestedSpelling(for: attribute))'"
        }
        return Violation(
            message: "\(property.quotedName) is declared '\(type.spelling)', but attribute "
                + "'\(owner.name).\(attribute.name)' is \(expected.describe(attribute)); \(fix)",
            location: property.location, entityName: owner.name, propertyName: attribute.name,
            suggestion: fix,
            // Only the Use Scalar Type setting disagrees: a code-generation option, so the
            // accessors still work (see the rationale); stale, not failing.
            severity: sameKindOtherForm && expected.usesScalarValueType != nil ? .warning : nil)
    }
}

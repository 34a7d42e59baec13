import DataModel

/// The Swift types that may declare an attribute, by its type and its Use Scalar Type
/// setting: the table of issue 10, after Xcode's code generation
/// (`docs/coredata-semantics.md` §5).
///
/// | Attribute type | scalar | not scalar |
/// |---|---|---|
/// | Integer 16 / 32 / 64 | `Int16` / `Int32` / `Int64` (or `Int`) | `NSNumber` |
/// | Float / Double / Boolean | `Float` / `Double` / `Bool` | `NSNumber` |
/// | Decimal, Date, Binary, UUID, URI, String | — | `Decimal` or `NSDecimalNumber`, `Date`/`NSDate`, `Data`/`NSData`, `UUID`/`NSUUID`, `URL`/`NSURL`, `String`/`NSString` |
///
/// `Int` is accepted for Integer 64 only: it is 64 bits wide on every platform Core Data
/// runs on, and narrower attributes need their own width, because "dynamically generated
/// accessors do not support implicit type coercion". When the model does not say whether
/// an attribute uses a scalar type (files from before Xcode 8), either form is accepted.
/// Transformable, Composite, ObjectID, Undefined and unknown types are not judged.
struct ExpectedSwiftType {
    /// The scalar type, when the attribute has one and the model asks for it (or does not say).
    let scalarNames: [String]
    /// The object types accepted.
    let objectNames: [String]
    /// The attribute type's scalar form whatever the setting, e.g. `Int64` and `Int`.
    let scalarForm: [String]
    var hasScalarForm: Bool { !scalarForm.isEmpty }
    /// What the model says: nil when it does not say.
    let usesScalarValueType: Bool?

    init?(for attribute: Attribute) {
        guard let type = attribute.attributeType else { return nil }
        let (scalar, objects): ([String], [String])
        switch type {
        case .integer16: (scalar, objects) = (["Int16"], ["NSNumber"])
        case .integer32: (scalar, objects) = (["Int32"], ["NSNumber"])
        case .integer64: (scalar, objects) = (["Int64", "Int"], ["NSNumber"])
        case .float: (scalar, objects) = (["Float"], ["NSNumber"])
        case .double: (scalar, objects) = (["Double"], ["NSNumber"])
        case .boolean: (scalar, objects) = (["Bool"], ["NSNumber"])
        case .decimal: (scalar, objects) = ([], ["Decimal", "NSDecimalNumber"])
        case .date: (scalar, objects) = ([], ["Date", "NSDate"])
        case .binary: (scalar, objects) = ([], ["Data", "NSData"])
        case .uuid: (scalar, objects) = ([], ["UUID", "NSUUID"])
        case .uri: (scalar, objects) = ([], ["URL", "NSURL"])
        case .string: (scalar, objects) = ([], ["String", "NSString"])
        case .undefined, .transformable, .objectID, .composite, .unknown: return nil
        }
        scalarForm = scalar
        usesScalarValueType = scalar.isEmpty ? nil : attribute.usesScalarValueType
        scalarNames = usesScalarValueType == false ? [] : scalar
        objectNames = usesScalarValueType == true ? [] : objects
    }

    var acceptedNames: [String] { scalarNames + objectNames }

    func accepts(_ type: SwiftTypeReference) -> Bool {
        acceptedNames.contains(type.baseName)
    }

    /// The declaration to suggest: the scalar when there is one, else the first object type,
    /// optional unless the attribute can never be nil (required with a default value).
    func suggestedSpelling(for attribute: Attribute) -> String {
        if let scalar = scalarNames.first { return scalar }
        let object = objectNames.first ?? "NSNumber"
        return !attribute.isOptional && attribute.hasDefaultValue ? object : object + "?"
    }

    /// How a message describes the attribute: `Integer 16 with Use Scalar Type`,
    /// `Double without Use Scalar Type`, `Date`.
    func describe(_ attribute: Attribute) -> String {
        let typeName = attribute.attributeType?.xmlName ?? "no type"
        switch usesScalarValueType {
        case true?: return typeName + " with Use Scalar Type"
        case false?: return typeName + " without Use Scalar Type"
        case nil: return typeName
        }
    }
}

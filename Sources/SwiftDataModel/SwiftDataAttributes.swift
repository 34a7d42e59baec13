import DataModel

/// How SwiftData stores a stored property that is not a relationship.
enum SwiftDataAttributes {
    /// Swift types SwiftData stores as a Core Data attribute type of their own. `Int8` takes
    /// Integer 16, the smallest Core Data integer; `Int` is 64 bits on every Apple platform
    /// SwiftData runs on. Core Data has no unsigned integers, and which attribute type SwiftData
    /// gives an unsigned property is not documented: each is read as the smallest signed integer
    /// that holds its range (inferred), so value checks judge the Swift type's range, and rule
    /// `unsigned_integer_attribute` reports the property.
    static let attributeTypes: [String: AttributeType] = [
        "String": .string, "Substring": .string, "Character": .string,
        "Bool": .boolean,
        "Int": .integer64, "Int64": .integer64, "UInt": .integer64, "UInt64": .integer64, "UInt32": .integer64,
        "Int32": .integer32, "UInt16": .integer32,
        "Int16": .integer16, "Int8": .integer16, "UInt8": .integer16,
        "Double": .double, "CGFloat": .double, "TimeInterval": .double, "Float": .float,
        "Decimal": .decimal, "Date": .date, "Data": .binary, "UUID": .uuid, "URL": .uri,
    ]

    static func attribute(_ property: StoredPropertyRecord, type: StoredType) -> Attribute {
        let macro = property.attributeMacro ?? AttributeMacro()
        let attributeType: AttributeType
        var compositeName: String?
        if macro.transformerName != nil {
            attributeType = .transformable
        } else if let name = type.name, let known = attributeTypes[name] {
            attributeType = known
        } else {
            // A `Codable` struct or enum, or an array or dictionary of values: SwiftData encodes
            // it itself (as a composite attribute since iOS 18), so it needs no transformer.
            attributeType = .composite
            compositeName = type.spelling.hasSuffix("?") ? String(type.spelling.dropLast()) : type.spelling
        }
        var defaultValue: String?
        var defaultExpression: String?
        switch property.initialValue {
        case nil, .nil?: break
        case .string(let text)?:
            if attributeType == .string { defaultValue = text } else { defaultExpression = "\"\(text)\"" }
        case .integer(let digits)?:
            if attributeType.isNumeric { defaultValue = digits } else { defaultExpression = digits }
        case .float(let digits)?:
            if [.double, .float, .decimal].contains(attributeType) { defaultValue = digits } else { defaultExpression = digits }
        case .boolean(let value)?:
            if attributeType == .boolean { defaultValue = value ? "YES" : "NO" } else { defaultExpression = String(value) }
        case .expression(let code)?:
            defaultExpression = code
        }
        return Attribute(
            name: property.name, attributeType: attributeType, isOptional: type.isOptional,
            isTransient: macro.isEphemeral, defaultValueString: defaultValue,
            allowsExternalBinaryDataStorage: macro.externalStorage,
            valueTransformerName: macro.transformerName, compositeName: compositeName,
            isSpotlightIndexingEnabled: macro.isSpotlight,
            preservesValueInHistoryOnDeletion: macro.preservesValueOnDeletion,
            allowsCloudEncryption: macro.allowsCloudEncryption,
            versionHashModifier: macro.hashModifier, renamingIdentifier: macro.originalName,
            defaultValueExpression: defaultExpression,
            userInfo: SwiftDataModelBuilder.userInfo(disabling: property.disabledRules),
            // The Swift type as written, for messages in the author's terms (`ModelWording`).
            xmlAttributes: XMLAttributes([.init(name: "swiftType", value: type.spelling)]),
            location: property.location)
    }
}

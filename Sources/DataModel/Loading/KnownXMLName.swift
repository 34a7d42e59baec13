/// The element and attribute names of Xcode's `contents` grammar, as small codes.
///
/// The parser attaches the code to each name once per distinct name in a document, so the
/// reader decodes elements with integer switches instead of comparing and hashing strings
/// (docs/benchmarks.md, "Names compared as strings").
enum KnownXMLName: String, CaseIterable, Sendable {
    // Elements
    case model, entity, attribute, relationship, fetchedProperty, fetchRequest, fetchIndex, fetchIndexElement
    case uniquenessConstraints, uniquenessConstraint, constraint, compoundIndexes, compoundIndex, index
    case userInfo, entry, configuration, memberEntity, composite, elements, element

    // Attributes (names shared with an element, such as `entity` or `composite`, appear once above)
    case name, representedClassName, parentEntity, isAbstract, codeGenerationType, versionHashModifier
    case renamingIdentifier, elementID, syncable
    case attributeType, optional, transient, defaultValueString, defaultDateTimeInterval, usesScalarValueType
    case minValueString, maxValueString, minDateTimeInterval, maxDateTimeInterval, regularExpressionString
    case allowsExternalBinaryDataStorage, valueTransformerName, customClassName, derived, derivationExpression
    case indexed, spotlightIndexingEnabled, preserveAfterDeletion, allowsCloudEncryption
    case destinationEntity, inverseName, inverseEntity, toMany, ordered, minCount, maxCount, deletionRule
    case predicateString, property, type, order, key, value, usedWithCloudKit

    static let bySpelling: [String: KnownXMLName] =
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.rawValue, $0) })

    init?(spelling: String) {
        guard let known = Self.bySpelling[spelling] else { return nil }
        self = known
    }
}

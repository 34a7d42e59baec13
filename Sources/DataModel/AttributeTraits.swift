/// What rules ask of an attribute before anything else: its type, optionality, and whether it
/// sets a default, bounds or external storage.
///
/// `Model` keeps these for every entity's attributes in one array of plain values, for the same
/// reason as `RelationshipTraits`: a rule passes over the attributes it has nothing to say about
/// without visiting each one's heap block.
public struct AttributeTraits: Hashable, Sendable {
    public var attributeType: AttributeType?
    public var isOptional: Bool
    public var isTransient: Bool
    public var allowsExternalBinaryDataStorage: Bool
    /// True when any default, minimum or maximum is written (values, lengths or dates).
    public var hasDefaultOrBounds: Bool
    /// True when the attribute has a `userInfo` entry (where `momlint:disable` is written).
    public var hasUserInfo: Bool
    /// True when the element carries an XML attribute outside Xcode's grammar: one a newer
    /// Xcode wrote, or one the SwiftData reader records (the property's Swift type).
    public var hasXMLAttributesOutsideGrammar: Bool

    public init(_ attribute: Attribute) {
        attributeType = attribute.attributeType
        isOptional = attribute.isOptional
        isTransient = attribute.isTransient
        allowsExternalBinaryDataStorage = attribute.allowsExternalBinaryDataStorage
        hasDefaultOrBounds = attribute.defaultValueString != nil || attribute.minValueString != nil
            || attribute.maxValueString != nil || attribute.defaultDateTimeInterval != nil
            || attribute.minDateTimeInterval != nil || attribute.maxDateTimeInterval != nil
        hasUserInfo = !attribute.userInfo.isEmpty
        hasXMLAttributesOutsideGrammar = attribute.xmlAttributes.hasNamesOutsideGrammar
    }
}

/// Where an attribute is declared: `entities[entityIndex].attributes[attributeIndex]`.
public struct AttributePosition: Hashable, Sendable {
    public let entityIndex: Int
    public let attributeIndex: Int

    public init(entityIndex: Int, attributeIndex: Int) {
        self.entityIndex = entityIndex
        self.attributeIndex = attributeIndex
    }
}

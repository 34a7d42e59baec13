/// An `<attribute>` of an entity (or of a composite).
///
/// Booleans follow Xcode's habit of omitting defaults: a missing `optional` means
/// required, a missing `transient` means persistent.
public struct Attribute: Hashable, Sendable {
    public var name: String
    /// Nil when the file has no `attributeType` at all.
    public var attributeType: AttributeType?
    public var isOptional: Bool
    public var isTransient: Bool
    public var defaultValueString: String?
    /// Seconds since 2001-01-01 for a Date default.
    public var defaultDateTimeInterval: String?
    /// Nil when the file does not say; Xcode's default then depends on the type.
    public var usesScalarValueType: Bool?
    public var minValueString: String?
    public var maxValueString: String?
    public var minDateTimeInterval: String?
    public var maxDateTimeInterval: String?
    public var regularExpressionString: String?
    public var allowsExternalBinaryDataStorage: Bool
    public var valueTransformerName: String?
    public var customClassName: String?
    /// For a Composite attribute: the name of its `<composite>` definition.
    public var compositeName: String?
    public var isDerived: Bool
    public var derivationExpression: String?
    public var isIndexed: Bool
    public var isSpotlightIndexingEnabled: Bool
    public var preservesValueInHistoryOnDeletion: Bool
    public var allowsCloudEncryption: Bool
    public var elementID: String?
    public var versionHashModifier: String?
    public var renamingIdentifier: String?
    public var userInfo: UserInfo
    /// Every XML attribute as written, the unknown ones included.
    public var xmlAttributes: XMLAttributes
    public var location: SourceLocation

    public init(
        name: String,
        attributeType: AttributeType?,
        isOptional: Bool = true,
        isTransient: Bool = false,
        defaultValueString: String? = nil,
        defaultDateTimeInterval: String? = nil,
        usesScalarValueType: Bool? = nil,
        minValueString: String? = nil,
        maxValueString: String? = nil,
        minDateTimeInterval: String? = nil,
        maxDateTimeInterval: String? = nil,
        regularExpressionString: String? = nil,
        allowsExternalBinaryDataStorage: Bool = false,
        valueTransformerName: String? = nil,
        customClassName: String? = nil,
        compositeName: String? = nil,
        isDerived: Bool = false,
        derivationExpression: String? = nil,
        isIndexed: Bool = false,
        isSpotlightIndexingEnabled: Bool = false,
        preservesValueInHistoryOnDeletion: Bool = false,
        allowsCloudEncryption: Bool = false,
        elementID: String? = nil,
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil,
        userInfo: UserInfo = UserInfo(),
        xmlAttributes: XMLAttributes = XMLAttributes(),
        location: SourceLocation
    ) {
        self.name = name
        self.attributeType = attributeType
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.defaultValueString = defaultValueString
        self.defaultDateTimeInterval = defaultDateTimeInterval
        self.usesScalarValueType = usesScalarValueType
        self.minValueString = minValueString
        self.maxValueString = maxValueString
        self.minDateTimeInterval = minDateTimeInterval
        self.maxDateTimeInterval = maxDateTimeInterval
        self.regularExpressionString = regularExpressionString
        self.allowsExternalBinaryDataStorage = allowsExternalBinaryDataStorage
        self.valueTransformerName = valueTransformerName
        self.customClassName = customClassName
        self.compositeName = compositeName
        self.isDerived = isDerived
        self.derivationExpression = derivationExpression
        self.isIndexed = isIndexed
        self.isSpotlightIndexingEnabled = isSpotlightIndexingEnabled
        self.preservesValueInHistoryOnDeletion = preservesValueInHistoryOnDeletion
        self.allowsCloudEncryption = allowsCloudEncryption
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.userInfo = userInfo
        self.xmlAttributes = xmlAttributes
        self.location = location
    }

    /// True when the attribute has a default value of any kind.
    public var hasDefaultValue: Bool {
        defaultValueString != nil || defaultDateTimeInterval != nil
    }
}

/// An `<attribute>` of an entity (or of a composite).
///
/// Booleans follow Xcode's habit of omitting defaults: a missing `optional` means
/// required, a missing `transient` means persistent.
@dynamicMemberLookup
public struct Attribute: Hashable, Sendable {
    /// What the element declares, stored once on the heap and shared by copies until one changes:
    /// copying the value costs a single retain, not one per field. Read and write them as
    /// properties of the attribute itself (`attribute.name`).
    public struct Fields: Hashable, Sendable {
        public var name: String
        /// Nil when the file has no `attributeType` at all.
        public var attributeType: AttributeType?
        public var isOptional: Bool
        public var isTransient: Bool
        public var defaultValueString: String?
        /// Seconds since 2001-01-01 for a Date default.
        public var defaultDateTimeInterval: String?
        /// A default written as Swift code that SwiftData evaluates when it builds the schema
        /// (`Date.now`, `UUID()`, `.draft`): the attribute has a default, but no value a rule
        /// can check. Nil for a `contents` file.
        public var defaultValueExpression: String?
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
    }

    // Equality and hashing are synthesized from the box, which compares and hashes the fields.
    @usableFromInline var storage: CopyOnWriteBox<Fields>

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
        defaultValueExpression: String? = nil,
        userInfo: UserInfo = UserInfo(),
        xmlAttributes: XMLAttributes = XMLAttributes(),
        location: SourceLocation
    ) {
        storage = CopyOnWriteBox(Fields(
            name: name, attributeType: attributeType, isOptional: isOptional, isTransient: isTransient,
            defaultValueString: defaultValueString, defaultDateTimeInterval: defaultDateTimeInterval,
            defaultValueExpression: defaultValueExpression,
            usesScalarValueType: usesScalarValueType, minValueString: minValueString,
            maxValueString: maxValueString, minDateTimeInterval: minDateTimeInterval,
            maxDateTimeInterval: maxDateTimeInterval, regularExpressionString: regularExpressionString,
            allowsExternalBinaryDataStorage: allowsExternalBinaryDataStorage,
            valueTransformerName: valueTransformerName, customClassName: customClassName,
            compositeName: compositeName, isDerived: isDerived, derivationExpression: derivationExpression,
            isIndexed: isIndexed, isSpotlightIndexingEnabled: isSpotlightIndexingEnabled,
            preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion,
            allowsCloudEncryption: allowsCloudEncryption, elementID: elementID,
            versionHashModifier: versionHashModifier, renamingIdentifier: renamingIdentifier,
            userInfo: userInfo, xmlAttributes: xmlAttributes, location: location))
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.value[keyPath: keyPath] }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = CopyOnWriteBox(storage.value) }
            yield &storage.value[keyPath: keyPath]
        }
    }


    /// True when the attribute has a default value of any kind.
    public var hasDefaultValue: Bool {
        self.defaultValueString != nil || self.defaultDateTimeInterval != nil || self.defaultValueExpression != nil
    }
}

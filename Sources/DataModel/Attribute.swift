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
        /// Nil when the file does not say; Xcode's default then depends on the type.
        public var usesScalarValueType: Bool?
        public var allowsExternalBinaryDataStorage: Bool
        public var isDerived: Bool
        public var isIndexed: Bool
        public var isSpotlightIndexingEnabled: Bool
        public var preservesValueInHistoryOnDeletion: Bool
        public var allowsCloudEncryption: Bool
        public var userInfo: UserInfo
        /// The XML attributes no field of the attribute holds (see `XMLAttributes`).
        public var xmlAttributes: XMLAttributes
        public var location: SourceLocation
        /// What few attributes declare, out of line (see `SeldomSetFields`).
        @usableFromInline var seldomSet = OutOfLineFields()
    }

    /// The fourteen optional strings an attribute seldom sets — bounds, date defaults, a
    /// transformer, identifiers. Read and write them as properties of the attribute itself
    /// (`attribute.minValueString`), like `Fields`.
    public struct SeldomSetFields: Hashable, Sendable {
        /// Seconds since 2001-01-01 for a Date default.
        public var defaultDateTimeInterval: String?
        /// A default written as Swift code that SwiftData evaluates when it builds the schema
        /// (`Date.now`, `UUID()`, `.draft`): the attribute has a default, but no value a rule
        /// can check. Nil for a `contents` file.
        public var defaultValueExpression: String?
        public var minValueString: String?
        public var maxValueString: String?
        public var minDateTimeInterval: String?
        public var maxDateTimeInterval: String?
        public var regularExpressionString: String?
        public var valueTransformerName: String?
        public var customClassName: String?
        /// For a Composite attribute: the name of its `<composite>` definition.
        public var compositeName: String?
        public var derivationExpression: String?
        public var elementID: String?
        public var versionHashModifier: String?
        public var renamingIdentifier: String?
    }

    /// `SeldomSetFields` in a block of their own, made when the first of them is set. Inline,
    /// their optional strings made every attribute's fields several times larger, nearly all of
    /// it nil, every page faulted in (docs/benchmarks.md, "Attributes' nil fields"). No block
    /// compares and hashes as a block of nils, so where the values live never shows.
    @usableFromInline
    struct OutOfLineFields: Hashable, Sendable {
        @usableFromInline var box: CopyOnWriteBox<SeldomSetFields>?

        init() {}

        /// A block for `values`, or none when every one of them is nil: decided by comparing
        /// with the empty value, so a field added to `SeldomSetFields` can never be dropped.
        init(_ values: SeldomSetFields) {
            if values != SeldomSetFields() { box = CopyOnWriteBox(values) }
        }

        @inlinable
        subscript(field: WritableKeyPath<SeldomSetFields, String?>) -> String? {
            get { box?.value[keyPath: field] ?? nil }
            set {
                // Setting nil where there is no block makes none.
                guard newValue != nil || box != nil else { return }
                if box == nil {
                    box = Self.emptyBlock()
                } else if !isKnownUniquelyReferenced(&box!) {
                    box = CopyOnWriteBox(box!.value)
                }
                box!.value[keyPath: field] = newValue
            }
        }

        /// A block of nils, for the first value set.
        @usableFromInline
        static func emptyBlock() -> CopyOnWriteBox<SeldomSetFields> {
            CopyOnWriteBox(SeldomSetFields())
        }

        @usableFromInline
        static func == (lhs: OutOfLineFields, rhs: OutOfLineFields) -> Bool {
            lhs.box === rhs.box || (lhs.box?.value ?? SeldomSetFields()) == (rhs.box?.value ?? SeldomSetFields())
        }

        @usableFromInline
        func hash(into hasher: inout Hasher) {
            hasher.combine(box?.value ?? SeldomSetFields())
        }
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
        self.init(inlineFields: Fields(
            name: name, attributeType: attributeType, isOptional: isOptional, isTransient: isTransient,
            defaultValueString: defaultValueString, usesScalarValueType: usesScalarValueType,
            allowsExternalBinaryDataStorage: allowsExternalBinaryDataStorage, isDerived: isDerived,
            isIndexed: isIndexed, isSpotlightIndexingEnabled: isSpotlightIndexingEnabled,
            preservesValueInHistoryOnDeletion: preservesValueInHistoryOnDeletion,
            allowsCloudEncryption: allowsCloudEncryption, userInfo: userInfo, xmlAttributes: xmlAttributes,
            location: location))
        // The block is made only when one of its values is there (see `OutOfLineFields`).
        storage.value.seldomSet = OutOfLineFields(SeldomSetFields(
            defaultDateTimeInterval: defaultDateTimeInterval, defaultValueExpression: defaultValueExpression,
            minValueString: minValueString, maxValueString: maxValueString, minDateTimeInterval: minDateTimeInterval,
            maxDateTimeInterval: maxDateTimeInterval, regularExpressionString: regularExpressionString,
            valueTransformerName: valueTransformerName, customClassName: customClassName, compositeName: compositeName,
            derivationExpression: derivationExpression, elementID: elementID, versionHashModifier: versionHashModifier,
            renamingIdentifier: renamingIdentifier))
    }

    /// An attribute with `fields` and none of the seldom-set ones. The loader starts each
    /// attribute here and sets the few seldom-set fields it reads afterwards: finding out that
    /// fourteen nils make no block, by comparing them with an empty block field by field, cost
    /// more than the rest of building the attribute.
    init(inlineFields fields: Fields) {
        storage = CopyOnWriteBox(fields)
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.value[keyPath: keyPath] }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = CopyOnWriteBox(storage.value) }
            yield &storage.value[keyPath: keyPath]
        }
    }

    @inlinable
    public subscript(dynamicMember keyPath: WritableKeyPath<SeldomSetFields, String?>) -> String? {
        get { storage.value.seldomSet[keyPath] }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = CopyOnWriteBox(storage.value) }
            yield &storage.value.seldomSet[keyPath]
        }
    }


    /// True when the attribute has a default value of any kind.
    public var hasDefaultValue: Bool {
        self.defaultValueString != nil || self.defaultDateTimeInterval != nil || self.defaultValueExpression != nil
    }
}

/// A `<relationship>` of an entity.
@dynamicMemberLookup
public struct Relationship: Hashable, Sendable {
    /// What the element declares, stored once on the heap and shared by copies until one changes:
    /// copying the value costs a single retain, not one per field. Read and write them as
    /// properties of the relationship itself (`relationship.name`).
    public struct Fields: Hashable, Sendable {
        public var name: String
        /// Nil when the file names no destination.
        public var destinationEntityName: String?
        public var inverseName: String?
        public var inverseEntityName: String?
        public var isToMany: Bool
        public var isOrdered: Bool
        public var isOptional: Bool
        public var isTransient: Bool
        /// Nil when absent; Core Data then uses 0.
        public var minCount: Int?
        /// Nil when absent; 0 means unbounded, and Xcode writes 1 for a to-one.
        public var maxCount: Int?
        /// `minCount` as the file writes it, even when it is not a number; nil when absent.
        public var minCountText: String?
        /// `maxCount` as the file writes it, even when it is not a number; nil when absent.
        public var maxCountText: String?
        public var deletionRule: DeleteRule
        /// False when the file has no `deletionRule`; Core Data then uses Nullify.
        public var declaresDeletionRule: Bool
        public var elementID: String?
        public var versionHashModifier: String?
        public var renamingIdentifier: String?
        public var userInfo: UserInfo
        /// The XML attributes no field above holds (see `XMLAttributes`).
        public var xmlAttributes: XMLAttributes
        public var location: SourceLocation
    }

    // Equality and hashing are synthesized from the box, which compares and hashes the fields.
    @usableFromInline var storage: CopyOnWriteBox<Fields>

    public init(
        name: String,
        destinationEntityName: String?,
        inverseName: String? = nil,
        inverseEntityName: String? = nil,
        isToMany: Bool = false,
        isOrdered: Bool = false,
        isOptional: Bool = true,
        isTransient: Bool = false,
        minCount: Int? = nil,
        maxCount: Int? = nil,
        minCountText: String? = nil,
        maxCountText: String? = nil,
        deletionRule: DeleteRule = .nullify,
        declaresDeletionRule: Bool = true,
        elementID: String? = nil,
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil,
        userInfo: UserInfo = UserInfo(),
        xmlAttributes: XMLAttributes = XMLAttributes(),
        location: SourceLocation
    ) {
        storage = CopyOnWriteBox(Fields(
            name: name, destinationEntityName: destinationEntityName, inverseName: inverseName,
            inverseEntityName: inverseEntityName, isToMany: isToMany, isOrdered: isOrdered,
            isOptional: isOptional, isTransient: isTransient, minCount: minCount, maxCount: maxCount,
            minCountText: minCountText, maxCountText: maxCountText,
            deletionRule: deletionRule, declaresDeletionRule: declaresDeletionRule, elementID: elementID,
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

    /// True when the relationship must hold at least one object at save: not optional,
    /// or a `minCount` above zero.
    public var isRequired: Bool { !self.isOptional || (self.minCount ?? 0) > 0 }
}

/// A `<relationship>` of an entity.
public struct Relationship: Hashable, Sendable {
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
    public var deletionRule: DeleteRule
    /// False when the file has no `deletionRule`; Core Data then uses Nullify.
    public var declaresDeletionRule: Bool
    public var elementID: String?
    public var versionHashModifier: String?
    public var renamingIdentifier: String?
    public var userInfo: UserInfo
    public var xmlAttributes: XMLAttributes
    public var location: SourceLocation

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
        deletionRule: DeleteRule = .nullify,
        declaresDeletionRule: Bool = true,
        elementID: String? = nil,
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil,
        userInfo: UserInfo = UserInfo(),
        xmlAttributes: XMLAttributes = XMLAttributes(),
        location: SourceLocation
    ) {
        self.name = name
        self.destinationEntityName = destinationEntityName
        self.inverseName = inverseName
        self.inverseEntityName = inverseEntityName
        self.isToMany = isToMany
        self.isOrdered = isOrdered
        self.isOptional = isOptional
        self.isTransient = isTransient
        self.minCount = minCount
        self.maxCount = maxCount
        self.deletionRule = deletionRule
        self.declaresDeletionRule = declaresDeletionRule
        self.elementID = elementID
        self.versionHashModifier = versionHashModifier
        self.renamingIdentifier = renamingIdentifier
        self.userInfo = userInfo
        self.xmlAttributes = xmlAttributes
        self.location = location
    }

    /// True when the relationship must hold at least one object at save: not optional,
    /// or a `minCount` above zero.
    public var isRequired: Bool { !isOptional || (minCount ?? 0) > 0 }
}

/// A `<fetchRequest>`: a template on the model, or the request of a fetched property.
public struct FetchRequest: Hashable, Sendable {
    public var name: String
    public var entityName: String?
    public var predicateString: String?
    public var xmlAttributes: XMLAttributes
    public var location: SourceLocation

    public init(name: String, entityName: String?, predicateString: String? = nil,
                xmlAttributes: XMLAttributes = XMLAttributes(), location: SourceLocation) {
        self.name = name
        self.entityName = entityName
        self.predicateString = predicateString
        self.xmlAttributes = xmlAttributes
        self.location = location
    }
}

/// A `<fetchedProperty>`: a weak, one-way, lazily evaluated property backed by a fetch.
public struct FetchedProperty: Hashable, Sendable {
    public var name: String
    public var isOptional: Bool
    public var fetchRequest: FetchRequest?
    public var userInfo: UserInfo
    public var xmlAttributes: XMLAttributes
    public var location: SourceLocation

    public init(name: String, isOptional: Bool = true, fetchRequest: FetchRequest? = nil,
                userInfo: UserInfo = UserInfo(), xmlAttributes: XMLAttributes = XMLAttributes(),
                location: SourceLocation) {
        self.name = name
        self.isOptional = isOptional
        self.fetchRequest = fetchRequest
        self.userInfo = userInfo
        self.xmlAttributes = xmlAttributes
        self.location = location
    }
}

/// A `<fetchIndex>` and its `<fetchIndexElement>`s.
public struct FetchIndex: Hashable, Sendable {
    public struct Element: Hashable, Sendable {
        public var property: String
        /// `Binary` or `RTree`.
        public var type: String?
        /// `ascending` or `descending`.
        public var order: String?
        public var location: SourceLocation
        public init(property: String, type: String? = nil, order: String? = nil, location: SourceLocation) {
            self.property = property
            self.type = type
            self.order = order
            self.location = location
        }
    }

    public var name: String
    public var elements: [Element]
    public var location: SourceLocation

    public init(name: String, elements: [Element], location: SourceLocation) {
        self.name = name
        self.elements = elements
        self.location = location
    }
}

/// One `<uniquenessConstraint>`: the tuple of its `<constraint>` values must be unique.
public struct UniquenessConstraint: Hashable, Sendable {
    public struct Member: Hashable, Sendable {
        public var property: String
        public var location: SourceLocation
        public init(property: String, location: SourceLocation) {
            self.property = property
            self.location = location
        }
    }

    public var members: [Member]
    public var location: SourceLocation

    public init(members: [Member], location: SourceLocation) {
        self.members = members
        self.location = location
    }

    public var propertyNames: [String] { members.map(\.property) }
}

/// A legacy `<compoundIndex>` (before fetch indexes): the properties indexed together.
public struct CompoundIndex: Hashable, Sendable {
    public var members: [UniquenessConstraint.Member]
    public var location: SourceLocation

    public init(members: [UniquenessConstraint.Member], location: SourceLocation) {
        self.members = members
        self.location = location
    }
}

/// A `<configuration>`: a named subset of entities, perhaps synced with CloudKit.
public struct Configuration: Hashable, Sendable {
    public struct Member: Hashable, Sendable {
        public var entityName: String
        public var location: SourceLocation
        public init(entityName: String, location: SourceLocation) {
            self.entityName = entityName
            self.location = location
        }
    }

    public var name: String
    public var usedWithCloudKit: Bool
    public var members: [Member]
    public var xmlAttributes: XMLAttributes
    public var location: SourceLocation

    public init(name: String, usedWithCloudKit: Bool = false, members: [Member] = [],
                xmlAttributes: XMLAttributes = XMLAttributes(), location: SourceLocation) {
        self.name = name
        self.usedWithCloudKit = usedWithCloudKit
        self.members = members
        self.xmlAttributes = xmlAttributes
        self.location = location
    }

    public var memberEntityNames: [String] { members.map(\.entityName) }
}

/// A `<composite>` definition (iOS 17): a named group of attributes that an attribute of
/// type Composite embeds. The element's spelling is inferred from Xcode 15 output.
public struct Composite: Hashable, Sendable {
    public var name: String
    public var attributes: [Attribute]
    public var location: SourceLocation

    public init(name: String, attributes: [Attribute], location: SourceLocation) {
        self.name = name
        self.attributes = attributes
        self.location = location
    }
}

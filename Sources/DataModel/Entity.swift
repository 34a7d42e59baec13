/// An `<entity>` of the model.
@dynamicMemberLookup
public struct Entity: Hashable, Sendable {
    /// How Xcode generates the entity's class (`codeGenerationType`).
    public enum CodeGeneration: Hashable, Sendable {
        /// No `codeGenerationType`: the developer writes the class (Manual/None).
        case manual
        /// `class`: Xcode generates the class and its properties.
        case classDefinition
        /// `category`: Xcode generates the properties in an extension.
        case category
        case unknown(String)

        public init(xmlValue: String?) {
            switch xmlValue {
            case nil: self = .manual
            case "class"?: self = .classDefinition
            case "category"?: self = .category
            case let other?: self = .unknown(other)
            }
        }
    }

    /// What the element declares, stored once on the heap and shared by copies until one changes:
    /// copying the value costs a single retain, not one per field. Read and write them as
    /// properties of the entity itself (`entity.name`).
    public struct Fields: Hashable, Sendable {
        public var name: String
        /// As written; a leading `.` means the current module.
        public var representedClassName: String?
        public var parentEntityName: String?
        public var isAbstract: Bool
        public var codeGeneration: CodeGeneration
        public var versionHashModifier: String?
        public var renamingIdentifier: String?
        public var elementID: String?
        public var syncable: Bool?
        public var attributes: [Attribute]
        public var relationships: [Relationship]
        public var fetchedProperties: [FetchedProperty]
        public var fetchIndexes: [FetchIndex]
        public var uniquenessConstraints: [UniquenessConstraint]
        public var compoundIndexes: [CompoundIndex]
        public var userInfo: UserInfo
        public var unknownElements: [UnknownElement]
        /// The XML attributes no field above holds (see `XMLAttributes`).
        public var xmlAttributes: XMLAttributes
        public var location: SourceLocation
    }

    // Equality and hashing are synthesized from the box, which compares and hashes the fields.
    @usableFromInline var storage: CopyOnWriteBox<Fields>

    public init(
        name: String,
        representedClassName: String? = nil,
        parentEntityName: String? = nil,
        isAbstract: Bool = false,
        codeGeneration: CodeGeneration = .manual,
        versionHashModifier: String? = nil,
        renamingIdentifier: String? = nil,
        elementID: String? = nil,
        syncable: Bool? = nil,
        attributes: [Attribute] = [],
        relationships: [Relationship] = [],
        fetchedProperties: [FetchedProperty] = [],
        fetchIndexes: [FetchIndex] = [],
        uniquenessConstraints: [UniquenessConstraint] = [],
        compoundIndexes: [CompoundIndex] = [],
        userInfo: UserInfo = UserInfo(),
        unknownElements: [UnknownElement] = [],
        xmlAttributes: XMLAttributes = XMLAttributes(),
        location: SourceLocation
    ) {
        storage = CopyOnWriteBox(Fields(
            name: name, representedClassName: representedClassName, parentEntityName: parentEntityName,
            isAbstract: isAbstract, codeGeneration: codeGeneration, versionHashModifier: versionHashModifier,
            renamingIdentifier: renamingIdentifier, elementID: elementID, syncable: syncable,
            attributes: attributes, relationships: relationships, fetchedProperties: fetchedProperties,
            fetchIndexes: fetchIndexes, uniquenessConstraints: uniquenessConstraints,
            compoundIndexes: compoundIndexes, userInfo: userInfo, unknownElements: unknownElements,
            xmlAttributes: xmlAttributes, location: location))
    }

    @inlinable
    public subscript<Value>(dynamicMember keyPath: WritableKeyPath<Fields, Value>) -> Value {
        get { storage.value[keyPath: keyPath] }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = CopyOnWriteBox(storage.value) }
            yield &storage.value[keyPath: keyPath]
        }
    }


    /// How many properties the entity itself declares, counted without building `properties`.
    public var propertyCount: Int {
        self.attributes.count + self.relationships.count + self.fetchedProperties.count
    }

    /// The entity's own properties (not inherited ones): attributes, then relationships, then
    /// fetched properties, each kind in document order. A view over the three arrays, so rules
    /// that walk every property of every entity build no array to do it.
    public var properties: PropertyList {
        PropertyList(attributes: self.attributes, relationships: self.relationships,
                     fetchedProperties: self.fetchedProperties)
    }

    /// An entity's attributes, relationships and fetched properties as one collection of
    /// `Property`, without copying them into one.
    public struct PropertyList: RandomAccessCollection, Sendable {
        public let attributes: [Attribute]
        public let relationships: [Relationship]
        public let fetchedProperties: [FetchedProperty]

        public var startIndex: Int { 0 }
        public var endIndex: Int { attributes.count + relationships.count + fetchedProperties.count }

        public subscript(position: Int) -> Property {
            if position < attributes.count { return .attribute(attributes[position]) }
            let relationshipIndex = position - attributes.count
            if relationshipIndex < relationships.count { return .relationship(relationships[relationshipIndex]) }
            return .fetchedProperty(fetchedProperties[relationshipIndex - relationships.count])
        }
    }
}

/// Any property of an entity: attribute, relationship or fetched property.
public enum Property: Hashable, Sendable {
    case attribute(Attribute)
    case relationship(Relationship)
    case fetchedProperty(FetchedProperty)

    public var name: String {
        switch self {
        case .attribute(let a): a.name
        case .relationship(let r): r.name
        case .fetchedProperty(let f): f.name
        }
    }

    public var location: SourceLocation {
        switch self {
        case .attribute(let a): a.location
        case .relationship(let r): r.location
        case .fetchedProperty(let f): f.location
        }
    }

    public var userInfo: UserInfo {
        switch self {
        case .attribute(let a): a.userInfo
        case .relationship(let r): r.userInfo
        case .fetchedProperty(let f): f.userInfo
        }
    }

    public var isTransient: Bool {
        switch self {
        case .attribute(let a): a.isTransient
        case .relationship(let r): r.isTransient
        case .fetchedProperty: false
        }
    }

    public var asAttribute: Attribute? {
        if case .attribute(let a) = self { return a }
        return nil
    }

    public var asRelationship: Relationship? {
        if case .relationship(let r) = self { return r }
        return nil
    }
}

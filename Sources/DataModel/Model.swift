/// A Core Data model as one `contents` file describes it: an immutable value with lookup
/// tables built once, so rules can ask "which entity", "which inverse", "which
/// sub-entities" in constant time.
public struct Model: Sendable {
    /// The `contents` file this model was read from.
    public var file: String { storage.file }
    public var version: ModelVersion { storage.version }
    public var documentVersion: String? { storage.documentVersion }
    public var lastSavedToolsVersion: String? { storage.lastSavedToolsVersion }
    public var systemVersion: String? { storage.systemVersion }
    public var minimumToolsVersion: String? { storage.minimumToolsVersion }
    public var sourceLanguage: String? { storage.sourceLanguage }
    public var userDefinedModelVersionIdentifier: String? { storage.userDefinedModelVersionIdentifier }
    /// `usedWithCloudKit` on `<model>` (older Xcode writes it on configurations instead).
    public var usedWithCloudKit: Bool { storage.usedWithCloudKit }
    public var usedWithSwiftData: Bool { storage.usedWithSwiftData }
    public var entities: [Entity] { storage.entities }
    public var configurations: [Configuration] { storage.configurations }
    public var fetchRequests: [FetchRequest] { storage.fetchRequests }
    public var composites: [Composite] { storage.composites }
    public var userInfo: UserInfo { storage.userInfo }
    public var unknownElements: [UnknownElement] { storage.unknownElements }
    public var xmlAttributes: XMLAttributes { storage.xmlAttributes }
    public var location: SourceLocation { storage.location }
    /// What the model was read from: a `contents` file, or SwiftData `@Model` classes. Rules
    /// consult it only for wording (a SwiftData user knows `Int`, not `Integer 64`).
    public var origin: ModelOrigin { storage.origin }

    /// Everything above, and the lookup tables, in one object that copies of the model share:
    /// rules and their views copy the model freely, and copying twenty fields counted a
    /// reference to each of them every time (a rule's pass over the relationships of a large
    /// model made hundreds of thousands of such copies).
    private let storage: Storage

    private final class Storage: Sendable {
        let file: String
        let version: ModelVersion
        let documentVersion: String?
        let lastSavedToolsVersion: String?
        let systemVersion: String?
        let minimumToolsVersion: String?
        let sourceLanguage: String?
        let userDefinedModelVersionIdentifier: String?
        let usedWithCloudKit: Bool
        let usedWithSwiftData: Bool
        let entities: [Entity]
        let configurations: [Configuration]
        let fetchRequests: [FetchRequest]
        let composites: [Composite]
        let userInfo: UserInfo
        let unknownElements: [UnknownElement]
        let xmlAttributes: XMLAttributes
        let location: SourceLocation
        let origin: ModelOrigin
        let index: ModelIndex
        /// Each relationship's declaration, found by the identity of its storage; made the first
        /// time anyone asks. Kept here, beside the index rather than in it: it answers by
        /// identity, so two equal indexes read separately answer differently, and `ModelIndex`'s
        /// equality compares values only.
        let relationshipPositions: RelationshipPositions

        init(file: String, version: ModelVersion, entities: [Entity], configurations: [Configuration],
             fetchRequests: [FetchRequest], composites: [Composite], userInfo: UserInfo,
             unknownElements: [UnknownElement], xmlAttributes: XMLAttributes, location: SourceLocation,
             index: ModelIndex, relationshipPositions: RelationshipPositions, origin: ModelOrigin) {
            self.origin = origin
            self.file = file
            self.version = version
            self.documentVersion = xmlAttributes["documentVersion"]
            self.lastSavedToolsVersion = xmlAttributes["lastSavedToolsVersion"]
            self.systemVersion = xmlAttributes["systemVersion"]
            self.minimumToolsVersion = xmlAttributes["minimumToolsVersion"]
            self.sourceLanguage = xmlAttributes["sourceLanguage"]
            self.userDefinedModelVersionIdentifier = xmlAttributes["userDefinedModelVersionIdentifier"]
            self.usedWithCloudKit = xmlAttributes.bool("usedWithCloudKit") ?? false
            self.usedWithSwiftData = xmlAttributes.bool("usedWithSwiftData") ?? false
            self.entities = entities
            self.configurations = configurations
            self.fetchRequests = fetchRequests
            self.composites = composites
            self.userInfo = userInfo
            self.unknownElements = unknownElements
            self.xmlAttributes = xmlAttributes
            self.location = location
            self.index = index
            self.relationshipPositions = relationshipPositions
        }
    }

    /// The lookup tables, built once (see `ModelIndex`), read in place.
    private var index: ModelIndex {
        _read { yield storage.index }
    }

    public init(
        file: String,
        version: ModelVersion? = nil,
        entities: [Entity],
        configurations: [Configuration] = [],
        fetchRequests: [FetchRequest] = [],
        composites: [Composite] = [],
        userInfo: UserInfo = UserInfo(),
        unknownElements: [UnknownElement] = [],
        xmlAttributes: XMLAttributes = XMLAttributes(),
        location: SourceLocation? = nil,
        origin: ModelOrigin = .contentsFile
    ) {
        self.init(file: file, version: version, entities: entities, configurations: configurations,
                  fetchRequests: fetchRequests, composites: composites, userInfo: userInfo,
                  unknownElements: unknownElements, xmlAttributes: xmlAttributes, location: location,
                  index: nil, origin: origin)
    }

    /// The loader's way in: `index`, when given, was built while the document was read (see
    /// `ContentsReader`); nil builds it here from `entities`. `relationshipPositions`, when
    /// given, is the positions found through `index` by another model sharing it.
    init(
        file: String,
        version: ModelVersion?,
        entities: [Entity],
        configurations: [Configuration],
        fetchRequests: [FetchRequest],
        composites: [Composite],
        userInfo: UserInfo,
        unknownElements: [UnknownElement],
        xmlAttributes: XMLAttributes,
        location: SourceLocation?,
        index: ModelIndex?,
        relationshipPositions: RelationshipPositions? = nil,
        origin: ModelOrigin = .contentsFile
    ) {
        // An index built from other entities would answer wrongly for every one of them, and so
        // would the positions found through it.
        let (tables, positions) = if let index, index.entityCount == entities.count {
            (index, relationshipPositions ?? RelationshipPositions())
        } else {
            (ModelIndex(entities: entities), RelationshipPositions())
        }
        storage = Storage(
            file: file,
            version: version ?? ModelVersion(bundlePath: nil, name: "", bundleVersionNames: [], selection: .standalone),
            entities: entities, configurations: configurations, fetchRequests: fetchRequests, composites: composites,
            userInfo: userInfo, unknownElements: unknownElements, xmlAttributes: xmlAttributes,
            location: location ?? SourceLocation(file: file, line: 1, column: 1), index: tables,
            relationshipPositions: positions, origin: origin)
    }

    /// The same model as another version of its bundle sees it (the loader's view of which
    /// version is current), sharing everything else, the lookup tables included.
    public func replacingVersion(with version: ModelVersion) -> Model {
        Model(file: file, version: version, entities: entities, configurations: configurations,
              fetchRequests: fetchRequests, composites: composites, userInfo: userInfo,
              unknownElements: unknownElements, xmlAttributes: xmlAttributes, location: location,
              index: index, relationshipPositions: storage.relationshipPositions, origin: origin)
    }

    // MARK: Entities

    public func entity(named name: String) -> Entity? {
        index.entityIndexByName[name].map { entities[$0] }
    }

    /// Where `entity(named:)` finds its entity in `entities` (the first declared of that name).
    public func entityIndex(named name: String) -> Int? {
        index.entityIndexByName[name]
    }

    /// The index of the first entity named as the entity at `entityIndex` is: the entity itself,
    /// unless an earlier entity has its name. As `entityIndex(named:)` of its name, without
    /// hashing the name.
    public func namesakeIndex(ofEntityAt entityIndex: Int) -> Int {
        Int(index.namesakeIndexes[entityIndex])
    }

    /// The `parentEntity` the entity at `entityIndex` names, as `entities[entityIndex].parentEntityName`
    /// but read from the model's flat table.
    public func parentName(ofEntityAt entityIndex: Int) -> String? {
        index.parentNames[entityIndex]
    }

    /// The index in `entities` of the parent the entity at `entityIndex` names (the first entity
    /// of that name), or nil for a root or an unknown parent; read from the model's tables.
    public func parentIndex(ofEntityAt entityIndex: Int) -> Int? {
        let parent = index.parentIndexes[entityIndex]
        return parent < 0 ? nil : Int(parent)
    }

    /// The name of the entity at `entityIndex`, as `entities[entityIndex].name` but read from the
    /// model's flat table.
    public func nameOfEntity(at entityIndex: Int) -> String {
        index.entityNames[entityIndex]
    }

    /// The entity's parent, or nil for a root or an unknown parent.
    public func parent(of entity: Entity) -> Entity? {
        entity.parentEntityName.flatMap(self.entity(named:))
    }

    /// Parent, grandparent, …; stops at an unknown parent and never loops on a cycle.
    public func ancestors(of entity: Entity) -> [Entity] {
        // Parents are found by name, as the first entity of each name, so the walk is the
        // tables' walk by index; `entity` itself may come from elsewhere.
        guard let parent = entity.parentEntityName.flatMap(entityIndex(named:)) else { return [] }
        return index.ancestorIndexes(from: parent, stoppingAt: entityIndex(named: entity.name)).map { entities[$0] }
    }

    /// The indexes in `entities` of the entity's ancestors, as `ancestors(of:)` finds them
    /// (parent first), read from the model's tables without visiting any entity.
    public func ancestorIndexes(ofEntityAt entityIndex: Int) -> [Int] {
        index.ancestorIndexes(ofEntityAt: entityIndex)
    }

    /// The top of the entity's hierarchy (the entity itself when it has no parent).
    public func root(of entity: Entity) -> Entity {
        ancestors(of: entity).last ?? entity
    }

    /// True when the parent chain of `entity` loops back on itself.
    public func hasInheritanceCycle(_ entity: Entity) -> Bool {
        var seen: Set<String> = [entity.name]
        var current = parent(of: entity)
        while let next = current {
            if !seen.insert(next.name).inserted { return true }
            current = parent(of: next)
        }
        return false
    }

    /// Entities whose `parentEntity` is this one.
    public func subentities(of entity: Entity) -> [Entity] {
        (index.subentityIndexesByParent[entity.name] ?? []).map { entities[$0] }
    }

    /// Every descendant, breadth first, each once even if the hierarchy is cyclic.
    public func allSubentities(of entity: Entity) -> [Entity] {
        var result: [Entity] = []
        var seen: Set<String> = [entity.name]
        var queue = subentities(of: entity)
        var head = 0
        while head < queue.count {
            let next = queue[head]
            head += 1
            guard seen.insert(next.name).inserted else { continue }
            result.append(next)
            queue.append(contentsOf: subentities(of: next))
        }
        return result
    }

    /// True when `entity` is `ancestor` or inherits from it.
    public func entity(_ entity: Entity, isKindOf ancestor: String) -> Bool {
        entity.name == ancestor || ancestors(of: entity).contains { $0.name == ancestor }
    }

    // MARK: Properties

    /// The entity's own property named `name`, then its ancestors' (nearest first).
    public func property(named name: String, in entity: Entity) -> Property? {
        if let own = ownProperty(named: name, in: entity) { return own }
        for ancestor in ancestors(of: entity) {
            if let inherited = ownProperty(named: name, in: ancestor) { return inherited }
        }
        return nil
    }

    /// The entity that declares the property `property(named:in:)` finds: `entity` itself, or
    /// the nearest ancestor that does; nil when none declares one of that name.
    public func declaringEntity(ofProperty name: String, for entity: Entity) -> Entity? {
        if ownProperty(named: name, in: entity) != nil { return entity }
        return ancestors(of: entity).first { ownProperty(named: name, in: $0) != nil }
    }

    /// True when the entity at `entityIndex` declares or inherits a property named `name`, as
    /// `property(named:in:)` of the first entity of its name finds one, read from the model's
    /// tables without making the property.
    public func hasProperty(named name: String, inEntityAt entityIndex: Int) -> Bool {
        let first = namesakeIndex(ofEntityAt: entityIndex)
        if index.slot(ofProperty: name, inEntityAt: first) != nil { return true }
        return index.ancestorIndexes(ofEntityAt: first).contains { index.slot(ofProperty: name, inEntityAt: $0) != nil }
    }

    /// The property the entity itself declares, ignoring inheritance.
    public func ownProperty(named name: String, in entity: Entity) -> Property? {
        guard let entityIndex = index.entityIndexByName[entity.name], entities[entityIndex].location == entity.location else {
            return entity.properties.first { $0.name == name }
        }
        let owner = entities[entityIndex]
        switch index.slot(ofProperty: name, inEntityAt: entityIndex) {
        case .attribute(let slot)?: return .attribute(owner.attributes[slot])
        case .relationship(let slot)?: return .relationship(owner.relationships[slot])
        case .fetchedProperty(let slot)?: return .fetchedProperty(owner.fetchedProperties[slot])
        case nil: return nil
        }
    }

    /// The names of the entity at `index` in `entities`, in the order of its `properties`
    /// (attributes, relationships, fetched properties). Reading names here is much faster than
    /// reading them from each property of a large model.
    public func ownPropertyNames(ofEntityAt entityIndex: Int) -> ArraySlice<String> {
        let slots = index.slots[entityIndex]
        return index.propertyNames[slots.firstName..<slots.endOfNames]
    }

    /// Attributes the entity declares or inherits, ancestors' first.
    public func allAttributes(of entity: Entity) -> [Attribute] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.attributes)
    }

    /// Relationships the entity declares or inherits, ancestors' first.
    public func allRelationships(of entity: Entity) -> [Relationship] {
        (ancestors(of: entity).reversed() + [entity]).flatMap(\.relationships)
    }

    /// Where the model declares this relationship; nil for a relationship that is not one of the
    /// model's own (built elsewhere, or changed since it was read from the model), or that the
    /// model holds at more than one position.
    public func position(of relationship: Relationship) -> RelationshipPosition? {
        storage.relationshipPositions.position(of: relationship, in: index)
    }

    /// The relationship at `position`, read from the model's flat table.
    public func relationship(at position: RelationshipPosition) -> Relationship {
        index.relationships[documentIndex(of: position)]
    }

    /// Where the inverse of the relationship at `position` is declared (see `inverse(of:)`).
    public func inversePosition(of position: RelationshipPosition) -> RelationshipPosition? {
        index.inversePositions[documentIndex(of: position)]
    }

    /// How many relationships the entities declare in all.
    public var relationshipCount: Int { index.relationshipTraits.count }

    /// The relationship's place among all the model's relationships in document order (entity by
    /// entity), from 0 to `relationshipCount - 1`: an index for a flat array of per-relationship
    /// values.
    public func documentIndex(of position: RelationshipPosition) -> Int {
        index.slots[position.entityIndex].firstRelationship + position.relationshipIndex
    }

    /// The index in `entities` of the entity the relationship at `position` names as its
    /// destination (the first of that name); nil when it names none or one the model lacks.
    public func destinationIndex(ofRelationshipAt position: RelationshipPosition) -> Int? {
        let destination = index.destinationIndexes[documentIndex(of: position)]
        return destination < 0 ? nil : Int(destination)
    }

    /// What rules test first about the relationship at `position`.
    public func traits(ofRelationshipAt position: RelationshipPosition) -> RelationshipTraits {
        index.relationshipTraits[documentIndex(of: position)]
    }

    /// Where the relationships whose traits pass `test` are declared, in document order
    /// (entity by entity). Only the trait and inverse tables are read, so a rule interested in a
    /// few relationships (Deny, say) never visits the others. `test` also gets the traits of the
    /// relationship's inverse, when it resolves (see `inversePosition(of:)`).
    public func relationshipPositions(
        where test: (_ traits: RelationshipTraits, _ inverse: RelationshipTraits?) -> Bool
    ) -> [RelationshipPosition] {
        var positions: [RelationshipPosition] = []
        for entityIndex in entities.indices {
            let first = index.slots[entityIndex].firstRelationship
            for slot in first..<first + index.slots[entityIndex].relationshipCount {
                let inverse = index.inversePositions[slot].map(traits(ofRelationshipAt:))
                guard test(index.relationshipTraits[slot], inverse) else { continue }
                positions.append(RelationshipPosition(entityIndex: entityIndex, relationshipIndex: slot - first))
            }
        }
        return positions
    }

    /// Where the relationships whose position passes `test` are declared, in document order
    /// (entity by entity): for a test that reads the tables by position (traits, destination,
    /// inverse) without building an array of every position first.
    public func relationshipPositions(atPositions test: (RelationshipPosition) -> Bool) -> [RelationshipPosition] {
        var positions: [RelationshipPosition] = []
        for entityIndex in entities.indices {
            for relationshipIndex in 0..<index.slots[entityIndex].relationshipCount {
                let position = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                if test(position) { positions.append(position) }
            }
        }
        return positions
    }

    /// What checks ask first about the entity at `entityIndex`, from the model's trait table.
    public func traits(ofEntityAt entityIndex: Int) -> EntityTraits {
        index.entityTraits[entityIndex]
    }

    /// The indexes of the entities whose traits pass `test`, in document order. Only the trait
    /// table is read.
    public func entityIndexes(where test: (EntityTraits) -> Bool) -> [Int] {
        index.entityTraits.indices.filter { test(index.entityTraits[$0]) }
    }

    /// Where the entities' attributes whose traits pass `test` are declared, in document order
    /// (entity by entity; composites' attributes are not included). Only the trait table is read.
    public func attributePositions(where test: (AttributeTraits) -> Bool) -> [AttributePosition] {
        var positions: [AttributePosition] = []
        for entityIndex in entities.indices {
            let first = index.slots[entityIndex].firstAttribute
            for slot in first..<first + index.slots[entityIndex].attributeCount where test(index.attributeTraits[slot]) {
                positions.append(AttributePosition(entityIndex: entityIndex, attributeIndex: slot - first))
            }
        }
        return positions
    }

    /// The attribute at `position`, as `entities[position.entityIndex].attributes[position.attributeIndex]`
    /// but read from the model's flat table.
    public func attribute(at position: AttributePosition) -> Attribute {
        index.attributes[index.slots[position.entityIndex].firstAttribute + position.attributeIndex]
    }

    /// What rules test first about the attribute at `position`.
    public func traits(ofAttributeAt position: AttributePosition) -> AttributeTraits {
        index.attributeTraits[index.slots[position.entityIndex].firstAttribute + position.attributeIndex]
    }

    /// The entity a relationship points to, if the model has it.
    public func destination(of relationship: Relationship) -> Entity? {
        relationship.destinationEntityName.flatMap(entity(named:))
    }

    /// The relationship named as `relationship`'s inverse, looked up on the inverse entity
    /// (or the destination when no inverse entity is written), inherited ones included.
    /// Nil when there is no inverse, or it names something that is not a relationship.
    public func inverse(of relationship: Relationship) -> Relationship? {
        if let position = position(of: relationship) {
            return inversePosition(of: position).map(self.relationship(at:))
        }
        guard let inverseName = relationship.inverseName,
              let owner = (relationship.inverseEntityName ?? relationship.destinationEntityName)
                .flatMap(entity(named:))
        else { return nil }
        return property(named: inverseName, in: owner)?.asRelationship
    }

    // MARK: Configurations

    public func configuration(named name: String) -> Configuration? {
        configurations.first { $0.name == name }
    }

    /// Configurations synced with CloudKit. A `usedWithCloudKit` model with no explicit
    /// configuration syncs its default configuration, which holds every entity.
    public var cloudKitEntityNames: Set<String> {
        var names: Set<String> = []
        for configuration in configurations where configuration.usedWithCloudKit {
            names.formUnion(configuration.memberEntityNames)
        }
        if usedWithCloudKit && !configurations.contains(where: \.usedWithCloudKit) {
            names.formUnion(entities.map(\.name))
        }
        return names
    }
}

/// Where a relationship is declared: `entities[entityIndex].relationships[relationshipIndex]`.
public struct RelationshipPosition: Hashable, Sendable {
    public let entityIndex: Int
    public let relationshipIndex: Int

    public init(entityIndex: Int, relationshipIndex: Int) {
        self.entityIndex = entityIndex
        self.relationshipIndex = relationshipIndex
    }
}

/// A Core Data model as one `contents` file describes it: an immutable value with lookup
/// tables built once, so rules can ask "which entity", "which inverse", "which
/// sub-entities" in constant time.
public struct Model: Sendable {
    /// The `contents` file this model was read from.
    public let file: String
    public let version: ModelVersion
    public let documentVersion: String?
    public let lastSavedToolsVersion: String?
    public let systemVersion: String?
    public let minimumToolsVersion: String?
    public let sourceLanguage: String?
    public let userDefinedModelVersionIdentifier: String?
    /// `usedWithCloudKit` on `<model>` (older Xcode writes it on configurations instead).
    public let usedWithCloudKit: Bool
    public let usedWithSwiftData: Bool
    public let entities: [Entity]
    public let configurations: [Configuration]
    public let fetchRequests: [FetchRequest]
    public let composites: [Composite]
    public let userInfo: UserInfo
    public let unknownElements: [UnknownElement]
    public let xmlAttributes: XMLAttributes
    public let location: SourceLocation

    private let entityIndexByName: [String: Int]
    private let subentityIndexesByParent: [String: [Int]]
    /// For entities with many properties, where each own property sits (indexes, not copies).
    /// Smaller entities are scanned: comparing a dozen names is cheaper than hashing one, and
    /// building 10,000 small dictionaries would cost more than every lookup made in them.
    private let propertyTables: [Int: [String: PropertySlot]]
    private static let scannedPropertyCount = 24
    /// Every entity's own property names in one array, attributes first, then relationships,
    /// then fetched properties (the order of `Entity.properties`). Names are read from here
    /// rather than from each property: a model of thousands of entities holds its properties in
    /// separate heap blocks, and visiting every one of them to compare a name misses the cache
    /// each time, where this array is read in order.
    private let propertyNames: [String]
    /// Per entity, where its entries sit in the flat tables (`propertyNames`, and the attribute
    /// and relationship tables below). One array of plain values per table rather than one per
    /// entity, so a pass over every property reads memory in order.
    private let slots: [EntitySlots]

    private struct EntitySlots {
        /// The entity's names are `propertyNames[firstName ..< endOfNames]`.
        var firstName: Int
        var attributeCount: Int
        var relationshipCount: Int
        var endOfNames: Int
        /// Its attributes' traits start at `attributeTraits[firstAttribute]`.
        var firstAttribute: Int
        /// Its relationships' inverses and traits start at `firstRelationship`.
        var firstRelationship: Int

        /// What the entity's property at `offset` (in `propertyNames` order) is.
        func property(atOffset offset: Int) -> PropertySlot {
            if offset < attributeCount { return .attribute(offset) }
            if offset < attributeCount + relationshipCount { return .relationship(offset - attributeCount) }
            return .fetchedProperty(offset - attributeCount - relationshipCount)
        }
    }
    /// Each relationship's declaration, found by the identity of its storage: rules hold copies
    /// of the model's relationships, and a copy shares its storage until it is changed.
    /// A model built by hand may hold one relationship value at several positions; those share
    /// a storage, so identity cannot tell them apart and they get no entry.
    private let positionByRelationship: [ObjectIdentifier: RelationshipPosition?]
    /// Per relationship, in document order: where the relationship its `inverseName` names is
    /// declared. Resolved once here because nearly every relationship rule asks.
    private let inversePositions: [RelationshipPosition?]
    /// Per relationship, in document order: what rules test first (see `RelationshipTraits`).
    private let relationshipTraits: [RelationshipTraits]
    /// Per entity attribute, in document order: what rules test first (see `AttributeTraits`).
    private let attributeTraits: [AttributeTraits]

    private enum PropertySlot {
        case attribute(Int)
        case relationship(Int)
        case fetchedProperty(Int)
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
        location: SourceLocation? = nil
    ) {
        self.file = file
        self.version = version ?? ModelVersion(bundlePath: nil, name: "", bundleVersionNames: [], selection: .standalone)
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
        self.location = location ?? SourceLocation(file: file, line: 1, column: 1)

        var byName: [String: Int] = [:]
        byName.reserveCapacity(entities.count)
        var children: [String: [Int]] = [:]
        var tables: [Int: [String: PropertySlot]] = [:]
        var names: [String] = []
        var slots: [EntitySlots] = []
        slots.reserveCapacity(entities.count)
        var attributeTraits: [AttributeTraits] = []
        var relationshipCount = 0
        for (index, entity) in entities.enumerated() {
            let attributes = entity.attributes, relationships = entity.relationships
            let entitySlots = EntitySlots(
                firstName: names.count, attributeCount: attributes.count, relationshipCount: relationships.count,
                endOfNames: names.count + entity.propertyCount, firstAttribute: attributeTraits.count,
                firstRelationship: relationshipCount)
            slots.append(entitySlots)
            relationshipCount += relationships.count
            for slot in attributes.indices {
                names.append(attributes[slot].name)
                attributeTraits.append(AttributeTraits(attributes[slot]))
            }
            for slot in relationships.indices { names.append(relationships[slot].name) }
            for fetched in entity.fetchedProperties { names.append(fetched.name) }
            // The first declaration wins, as it does when Core Data builds its own tables;
            // a duplicate is a rule's business, not the loader's.
            if byName[entity.name] == nil { byName[entity.name] = index }
            if let parent = entity.parentEntityName { children[parent, default: []].append(index) }
            guard entity.propertyCount > Self.scannedPropertyCount else { continue }
            // The first declaration of a name wins; duplicates are a rule's business.
            var own: [String: PropertySlot] = [:]
            own.reserveCapacity(entity.propertyCount)
            for offset in 0..<entity.propertyCount where own[names[entitySlots.firstName + offset]] == nil {
                own[names[entitySlots.firstName + offset]] = entitySlots.property(atOffset: offset)
            }
            tables[index] = own
        }
        self.entityIndexByName = byName
        self.subentityIndexesByParent = children
        self.propertyTables = tables
        self.propertyNames = names
        self.slots = slots
        self.attributeTraits = attributeTraits

        var positions: [ObjectIdentifier: RelationshipPosition?] = [:]
        positions.reserveCapacity(relationshipCount)
        var inverses: [RelationshipPosition?] = []
        inverses.reserveCapacity(relationshipCount)
        var traits: [RelationshipTraits] = []
        traits.reserveCapacity(relationshipCount)
        for entityIndex in entities.indices {
            let relationships = entities[entityIndex].relationships
            for relationshipIndex in relationships.indices {
                let relationship = relationships[relationshipIndex]
                let position = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                let identity = ObjectIdentifier(relationship.storage)
                positions[identity] = positions[identity] == nil ? position : .some(nil)
                inverses.append(Self.resolveInverse(of: relationship, entities: entities, byName: byName,
                                                    tables: tables, names: names, slots: slots))
                traits.append(RelationshipTraits(relationship))
            }
        }
        self.positionByRelationship = positions
        self.inversePositions = inverses
        self.relationshipTraits = traits
    }

    /// The relationship `relationship.inverseName` names on its inverse entity (or destination)
    /// or the nearest ancestor declaring that name; nil when that property is not a relationship.
    private static func resolveInverse(of relationship: Relationship, entities: [Entity], byName: [String: Int],
                                       tables: [Int: [String: PropertySlot]], names: [String],
                                       slots: [EntitySlots]) -> RelationshipPosition? {
        guard let inverseName = relationship.inverseName,
              let ownerName = relationship.inverseEntityName ?? relationship.destinationEntityName,
              var current = byName[ownerName]
        else { return nil }
        // Parent chains are short: only a long one pays for a set to notice a cycle.
        var steps = 0
        var visited: Set<Int>?
        while true {
            switch slot(ofProperty: inverseName, table: tables[current], names: names, of: slots[current]) {
            case .relationship(let slot)?: return RelationshipPosition(entityIndex: current, relationshipIndex: slot)
            case .attribute?, .fetchedProperty?: return nil
            case nil:
                guard let parent = entities[current].parentEntityName.flatMap({ byName[$0] }) else { return nil }
                current = parent
            }
            steps += 1
            if steps > 32 {
                if visited == nil { visited = [] }
                if visited?.insert(current).inserted == false { return nil }  // an inheritance cycle
            }
        }
    }

    // MARK: Entities

    public func entity(named name: String) -> Entity? {
        entityIndexByName[name].map { entities[$0] }
    }

    /// Where `entity(named:)` finds its entity in `entities` (the first declared of that name).
    public func entityIndex(named name: String) -> Int? {
        entityIndexByName[name]
    }

    /// The entity's parent, or nil for a root or an unknown parent.
    public func parent(of entity: Entity) -> Entity? {
        entity.parentEntityName.flatMap(self.entity(named:))
    }

    /// Parent, grandparent, …; stops at an unknown parent and never loops on a cycle.
    public func ancestors(of entity: Entity) -> [Entity] {
        guard var current = parent(of: entity) else { return [] }  // most entities are roots
        var result: [Entity] = []
        // Chains are short, so a linear scan finds a loop faster than hashing would; a set
        // takes over for a deep chain, which stays linear.
        var seen: Set<String>?
        while true {
            if let set = seen {
                if set.contains(current.name) { break }
            } else if current.name == entity.name || result.contains(where: { $0.name == current.name }) {
                break
            }
            result.append(current)
            if seen == nil, result.count == 32 { seen = Set([entity.name] + result.map(\.name)) }
            seen?.insert(current.name)
            guard let next = parent(of: current) else { break }
            current = next
        }
        return result
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
        (subentityIndexesByParent[entity.name] ?? []).map { entities[$0] }
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

    /// The property the entity itself declares, ignoring inheritance.
    public func ownProperty(named name: String, in entity: Entity) -> Property? {
        guard let index = entityIndexByName[entity.name], entities[index].location == entity.location else {
            return entity.properties.first { $0.name == name }
        }
        let owner = entities[index]
        switch Self.slot(ofProperty: name, table: propertyTables[index], names: propertyNames, of: slots[index]) {
        case .attribute(let slot)?: return .attribute(owner.attributes[slot])
        case .relationship(let slot)?: return .relationship(owner.relationships[slot])
        case .fetchedProperty(let slot)?: return .fetchedProperty(owner.fetchedProperties[slot])
        case nil: return nil
        }
    }

    /// Where the entity's own property `name` sits: attributes first, then relationships, then
    /// fetched properties, the first declaration of a name winning, as in Core Data's tables.
    private static func slot(ofProperty name: String, table: [String: PropertySlot]?, names: [String],
                             of entity: EntitySlots) -> PropertySlot? {
        if let table { return table[name] }
        // Comparing the stored lengths first settles most names without comparing text.
        let length = name.utf8.count
        for index in entity.firstName..<entity.endOfNames where names[index].utf8.count == length && names[index] == name {
            return entity.property(atOffset: index - entity.firstName)
        }
        return nil
    }

    /// The names of the entity at `index` in `entities`, in the order of its `properties`
    /// (attributes, relationships, fetched properties). Reading names here is much faster than
    /// reading them from each property of a large model.
    public func ownPropertyNames(ofEntityAt index: Int) -> ArraySlice<String> {
        propertyNames[slots[index].firstName..<slots[index].endOfNames]
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
        positionByRelationship[ObjectIdentifier(relationship.storage)] ?? nil
    }

    public func relationship(at position: RelationshipPosition) -> Relationship {
        entities[position.entityIndex].relationships[position.relationshipIndex]
    }

    /// Where the inverse of the relationship at `position` is declared (see `inverse(of:)`).
    public func inversePosition(of position: RelationshipPosition) -> RelationshipPosition? {
        inversePositions[documentIndex(of: position)]
    }

    /// How many relationships the entities declare in all.
    public var relationshipCount: Int { relationshipTraits.count }

    /// The relationship's place among all the model's relationships in document order (entity by
    /// entity), from 0 to `relationshipCount - 1`: an index for a flat array of per-relationship
    /// values.
    public func documentIndex(of position: RelationshipPosition) -> Int {
        slots[position.entityIndex].firstRelationship + position.relationshipIndex
    }

    /// What rules test first about the relationship at `position`.
    public func traits(ofRelationshipAt position: RelationshipPosition) -> RelationshipTraits {
        relationshipTraits[documentIndex(of: position)]
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
            let first = slots[entityIndex].firstRelationship
            for slot in first..<first + slots[entityIndex].relationshipCount {
                let inverse = inversePositions[slot].map(traits(ofRelationshipAt:))
                guard test(relationshipTraits[slot], inverse) else { continue }
                positions.append(RelationshipPosition(entityIndex: entityIndex, relationshipIndex: slot - first))
            }
        }
        return positions
    }

    /// Where the entities' attributes whose traits pass `test` are declared, in document order
    /// (entity by entity; composites' attributes are not included). Only the trait table is read.
    public func attributePositions(where test: (AttributeTraits) -> Bool) -> [AttributePosition] {
        var positions: [AttributePosition] = []
        for entityIndex in entities.indices {
            let first = slots[entityIndex].firstAttribute
            for slot in first..<first + slots[entityIndex].attributeCount where test(attributeTraits[slot]) {
                positions.append(AttributePosition(entityIndex: entityIndex, attributeIndex: slot - first))
            }
        }
        return positions
    }

    /// What rules test first about the attribute at `position`.
    public func traits(ofAttributeAt position: AttributePosition) -> AttributeTraits {
        attributeTraits[slots[position.entityIndex].firstAttribute + position.attributeIndex]
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

import Foundation

/// The lookup tables a `Model` answers from: entities by name, sub-entities by parent, every
/// entity's own property names, each relationship's inverse and destination, and the traits
/// rules test first. Plain arrays in document order, built once when the model is made.
///
/// A model of thousands of entities keeps every entity, attribute and relationship in its own
/// heap block, spread over a hundred megabytes; a rule that visits every block misses the cache
/// at each one. These tables hold what rules test first, read in order.
///
/// Two indexes are equal when every table is (the tests hold a model read in parts to the one
/// read whole this way, so a table added here is compared without anyone listing it).
struct ModelIndex: Equatable, Sendable {
    /// Where each entity's entries sit in the flat tables below.
    struct EntitySlots: Equatable, Sendable {
        /// The entity's names are `propertyNames[firstName ..< endOfNames]`.
        var firstName: Int
        var attributeCount: Int
        var relationshipCount: Int
        var endOfNames: Int
        /// Its attributes' traits start at `attributeTraits[firstAttribute]`.
        var firstAttribute: Int
        /// Its relationships' entries (inverse, destination, traits) start at `firstRelationship`.
        var firstRelationship: Int

        /// What the entity's property at `offset` (in `propertyNames` order) is.
        func property(atOffset offset: Int) -> PropertySlot {
            if offset < attributeCount { return .attribute(offset) }
            if offset < attributeCount + relationshipCount { return .relationship(offset - attributeCount) }
            return .fetchedProperty(offset - attributeCount - relationshipCount)
        }
    }

    enum PropertySlot: Equatable, Sendable {
        case attribute(Int)
        case relationship(Int)
        case fetchedProperty(Int)
    }

    /// The first entity of each name: Core Data's own tables keep the first declaration, and a
    /// duplicate is a rule's business, not the loader's.
    var entityIndexByName: [String: Int] = [:]
    var subentityIndexesByParent: [String: [Int]] = [:]
    /// For entities with many properties, where each own property sits (indexes, not copies).
    /// Smaller entities are scanned: comparing a dozen names is cheaper than hashing one, and
    /// building 10,000 small dictionaries would cost more than every lookup made in them.
    var propertyTables: [Int: [String: PropertySlot]] = [:]
    static let scannedPropertyCount = 24
    /// Every entity's own property names in one array, attributes first, then relationships,
    /// then fetched properties (the order of `Entity.properties`), so a pass over every name
    /// reads memory in order instead of visiting every property's block.
    var propertyNames: [String] = []
    var slots: [EntitySlots] = []
    /// Each relationship's declaration, found by the identity of its storage (see
    /// `RelationshipPositions`); made the first time anyone asks.
    var relationshipPositions = RelationshipPositions()
    /// Per relationship, in document order: where the relationship its `inverseName` names is
    /// declared. Resolved once here because nearly every relationship rule asks.
    var inversePositions: [RelationshipPosition?] = []
    /// Per relationship, in document order: the index of the entity its `destinationEntity`
    /// names, or -1 when it names none or an unknown one. `Int32` keeps the table small.
    var destinationIndexes: [Int32] = []
    /// Per entity: the parent it names, and the index of that entity, or -1 when it names none
    /// or an unknown one.
    var parentNames: [String?] = []
    var parentIndexes: [Int32] = []
    /// Per entity: the index of the first entity of its name (its own, unless it repeats a name).
    var namesakeIndexes: [Int32] = []
    /// Per relationship, in document order: what rules test first (see `RelationshipTraits`).
    var relationshipTraits: [RelationshipTraits] = []
    /// Per entity attribute, in document order: what rules test first (see `AttributeTraits`).
    var attributeTraits: [AttributeTraits] = []
    /// Per entity, in document order: what checks test first (see `EntityTraits`).
    var entityTraits: [EntityTraits] = []
    /// Every entity attribute and relationship in document order, and every entity's name: a
    /// rule that reports one reaches it in one step, not through its entity's block and array.
    var attributes: [Attribute] = []
    var relationships: [Relationship] = []
    var entityNames: [String] = []

    init(entities: [Entity]) {
        var builder = Builder()
        builder.reserveCapacity(entities.count)
        for entity in entities { builder.append(entity) }
        self = builder.finish()
    }

    fileprivate init() {}

    var entityCount: Int { slots.count }

    /// Collects the tables one entity at a time, in document order; the inverses, which need
    /// every entity's name, are resolved at the end from names copied on the way.
    struct Builder {
        private var index = ModelIndex()
        /// Per relationship: the names its inverse is resolved from once every entity is known.
        private var pendingInverses: [PendingInverse] = []

        init() {}

        mutating func reserveCapacity(_ entityCount: Int) {
            index.slots.reserveCapacity(entityCount)
            index.entityIndexByName.reserveCapacity(entityCount)
            index.parentNames.reserveCapacity(entityCount)
            index.entityTraits.reserveCapacity(entityCount)
        }

        mutating func append(_ entity: Entity) {
            let entityIndex = index.slots.count
            let attributes = entity.attributes, relationships = entity.relationships
            let fetchedProperties = entity.fetchedProperties
            let propertyCount = attributes.count + relationships.count + fetchedProperties.count
            let firstRelationship = index.relationshipTraits.count
            let slots = EntitySlots(
                firstName: index.propertyNames.count, attributeCount: attributes.count,
                relationshipCount: relationships.count, endOfNames: index.propertyNames.count + propertyCount,
                firstAttribute: index.attributeTraits.count, firstRelationship: firstRelationship)
            index.slots.append(slots)
            for attribute in attributes {
                index.propertyNames.append(attribute.name)
                index.attributeTraits.append(AttributeTraits(attribute))
                index.attributes.append(attribute)
            }
            for relationship in relationships {
                index.propertyNames.append(relationship.name)
                index.relationshipTraits.append(RelationshipTraits(relationship))
                index.relationships.append(relationship)
                let destination = relationship.destinationEntityName
                pendingInverses.append(PendingInverse(
                    ownerName: relationship.inverseEntityName ?? destination,
                    inverseName: relationship.inverseName, destinationName: destination))
            }
            for fetched in fetchedProperties { index.propertyNames.append(fetched.name) }

            let name = entity.name
            index.entityNames.append(name)
            index.entityTraits.append(EntityTraits(entity))
            index.namesakeIndexes.append(Int32(truncatingIfNeeded: index.firstEntityIndex(named: name, orAdd: entityIndex)))
            let parentName = entity.parentEntityName
            index.parentNames.append(parentName)
            if let parentName { index.subentityIndexesByParent[parentName, default: []].append(entityIndex) }

            guard propertyCount > ModelIndex.scannedPropertyCount else { return }
            // The first declaration of a name wins; duplicates are a rule's business.
            var own: [String: PropertySlot] = [:]
            own.reserveCapacity(propertyCount)
            for offset in 0..<propertyCount where own[index.propertyNames[slots.firstName + offset]] == nil {
                own[index.propertyNames[slots.firstName + offset]] = slots.property(atOffset: offset)
            }
            index.propertyTables[entityIndex] = own
        }

        /// Appends the tables `other` collected from the entities that follow this builder's in
        /// the document, as if they had been appended here one by one: every position in them
        /// moves past this builder's, and a name already known keeps its first entity.
        mutating func append(contentsOf other: Builder) {
            let entityOffset = index.slots.count, nameOffset = index.propertyNames.count
            let attributeOffset = index.attributeTraits.count, relationshipOffset = index.relationshipTraits.count
            let theirs = other.index
            index.entityIndexByName.reserveCapacity(index.entityIndexByName.count + theirs.entityIndexByName.count)
            index.slots.append(contentsOf: theirs.slots.lazy.map { slots in
                var moved = slots
                moved.firstName += nameOffset
                moved.endOfNames += nameOffset
                moved.firstAttribute += attributeOffset
                moved.firstRelationship += relationshipOffset
                return moved
            })
            index.propertyNames.append(contentsOf: theirs.propertyNames)
            index.attributeTraits.append(contentsOf: theirs.attributeTraits)
            index.attributes.append(contentsOf: theirs.attributes)
            index.relationshipTraits.append(contentsOf: theirs.relationshipTraits)
            index.relationships.append(contentsOf: theirs.relationships)
            pendingInverses.append(contentsOf: other.pendingInverses)
            for (offset, name) in theirs.entityNames.enumerated() {
                let entityIndex = entityOffset + offset
                index.entityNames.append(name)
                index.namesakeIndexes.append(Int32(truncatingIfNeeded: index.firstEntityIndex(named: name, orAdd: entityIndex)))
            }
            index.parentNames.append(contentsOf: theirs.parentNames)
            index.entityTraits.append(contentsOf: theirs.entityTraits)
            for (parentName, children) in theirs.subentityIndexesByParent {
                index.subentityIndexesByParent[parentName, default: []].append(contentsOf: children.map { $0 + entityOffset })
            }
            for (entityIndex, table) in theirs.propertyTables {
                index.propertyTables[entityIndex + entityOffset] = table
            }
        }

        /// The finished tables: destinations and inverses resolved now that every name is known.
        consuming func finish() -> ModelIndex {
            var result = index
            result.parentIndexes = result.parentNames.map { name in
                name.flatMap { result.entityIndexByName[$0] }.map { Int32(truncatingIfNeeded: $0) } ?? -1
            }
            (result.destinationIndexes, result.inversePositions) = ModelIndex.resolve(pendingInverses, in: result)
            return result
        }
    }

    /// Relationships resolved per chunk: a large model's are split among the cores, since every
    /// one is looked up on its own in tables no longer changing, and this is the part of
    /// building the tables the loader waits for.
    static let resolvedChunkSize = 4_096

    /// The names a relationship's destination and inverse are resolved from.
    fileprivate struct PendingInverse: Sendable {
        /// `inverseEntity`, or the destination when no inverse entity is written.
        var ownerName: String?
        var inverseName: String?
        var destinationName: String?
    }

    /// Each relationship's destination index and inverse, in the order given.
    fileprivate static func resolve(_ pending: [PendingInverse], in index: ModelIndex)
        -> (destinations: [Int32], inverses: [RelationshipPosition?]) {
        var destinations = [Int32](repeating: -1, count: pending.count)
        var inverses = [RelationshipPosition?](repeating: nil, count: pending.count)
        let chunkCount = (pending.count + resolvedChunkSize - 1) / resolvedChunkSize
        destinations.withUnsafeMutableBufferPointer { destinationSlots in
            inverses.withUnsafeMutableBufferPointer { inverseSlots in
                // Each chunk writes only its own range of the two buffers, which outlive
                // `concurrentPerform`; no two threads touch the same memory.
                nonisolated(unsafe) let destinationSlots = destinationSlots, inverseSlots = inverseSlots
                @Sendable func resolve(chunk: Int) {
                    let start = chunk * resolvedChunkSize
                    for slot in start..<min(start + resolvedChunkSize, pending.count) {
                        let relationship = pending[slot]
                        let destination = relationship.destinationName.flatMap { index.entityIndexByName[$0] }
                        if let destination { destinationSlots[slot] = Int32(truncatingIfNeeded: destination) }
                        guard let inverseName = relationship.inverseName, let ownerName = relationship.ownerName else { continue }
                        // The owner is nearly always the destination itself: comparing the two
                        // names is cheaper than hashing the owner's again.
                        let owner = ownerName == relationship.destinationName ? destination : index.entityIndexByName[ownerName]
                        inverseSlots[slot] = owner.flatMap { index.resolveInverse(named: inverseName, inEntityAt: $0) }
                    }
                }
                if chunkCount > 1 {
                    ConcurrentWork.perform(iterations: chunkCount, resolve(chunk:))
                } else if chunkCount == 1 {
                    resolve(chunk: 0)
                }
            }
        }
        return (destinations, inverses)
    }

    /// The index of the first entity named `name`, which is `entityIndex` when none was added
    /// before. One look-up: the dictionary's defaulting subscript inserts and yields in place,
    /// where testing for the name and then adding it hashes the name twice.
    fileprivate mutating func firstEntityIndex(named name: String, orAdd entityIndex: Int) -> Int {
        func value(_ stored: inout Int) -> Int { stored }
        return value(&entityIndexByName[name, default: entityIndex])
    }

    /// Where the relationship `inverseName` of the entity at `owner` (or of an ancestor) is
    /// declared; nil when the name is missing or belongs to an attribute or fetched property.
    private func resolveInverse(named inverseName: String, inEntityAt owner: Int) -> RelationshipPosition? {
        // Most inverses are declared on the owner itself: only the others walk its ancestors.
        if let found = slot(ofProperty: inverseName, inEntityAt: owner) { return Self.relationshipPosition(found, in: owner) }
        for ancestor in ancestorIndexes(ofEntityAt: owner) {
            if let found = slot(ofProperty: inverseName, inEntityAt: ancestor) {
                return Self.relationshipPosition(found, in: ancestor)
            }
        }
        return nil
    }

    /// Where a property slot's relationship is declared; nil for an attribute or fetched property.
    private static func relationshipPosition(_ slot: PropertySlot, in entityIndex: Int) -> RelationshipPosition? {
        guard case .relationship(let relationshipIndex) = slot else { return nil }
        return RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
    }

    /// The entity's ancestors, parent first, each the first entity of the name its child gives.
    func ancestorIndexes(ofEntityAt entityIndex: Int) -> [Int] {
        guard parentIndexes[entityIndex] >= 0 else { return [] }  // most entities are roots
        return ancestorIndexes(from: Int(parentIndexes[entityIndex]), stoppingAt: Int(namesakeIndexes[entityIndex]))
    }

    /// `parent` and its ancestors in turn, until a parent is unknown or the walk comes back to
    /// `start` (the first entity of the starting entity's name) or to an entity already passed.
    func ancestorIndexes(from parent: Int, stoppingAt start: Int?) -> [Int] {
        var current = parent
        var result: [Int] = []
        // Chains are short, so a linear scan finds a loop faster than hashing would; a set
        // takes over for a deep chain, which stays linear.
        var seen: Set<Int>?
        while true {
            if let set = seen {
                if set.contains(current) { break }
            } else if current == start || result.contains(current) {
                break
            }
            result.append(current)
            if seen == nil, result.count == 32 { seen = Set(result + (start.map { [$0] } ?? [])) }
            seen?.insert(current)
            guard parentIndexes[current] >= 0 else { break }
            current = Int(parentIndexes[current])
        }
        return result
    }

    /// Where the entity's own property `name` sits; the first of that name wins.
    func slot(ofProperty name: String, inEntityAt entityIndex: Int) -> PropertySlot? {
        if let table = propertyTables[entityIndex] { return table[name] }
        let entity = slots[entityIndex]
        // Comparing the stored lengths first settles most names without comparing text.
        let length = name.utf8.count
        for index in entity.firstName..<entity.endOfNames
        where propertyNames[index].utf8.count == length && propertyNames[index] == name {
            return entity.property(atOffset: index - entity.firstName)
        }
        return nil
    }
}

extension ModelIndex {
    /// An empty index, which only a `Builder` fills.
    fileprivate init() {}

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
}

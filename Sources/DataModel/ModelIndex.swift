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

    var entityCount: Int { slots.count }

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

import DataModel
import SafeFiles

/// Every hash of a whole model, in two passes: first each entity by itself (its properties, and
/// its own hash when it has no parent), on every core of a large model; then, in inheritance
/// order, the entities that have a parent, whose rows include what they inherit.
extension VersionHasher {
    /// Every hash of the model. Entities that cannot be hashed (an unknown attribute type, a
    /// relationship without a destination, a missing or cyclic parent) have a nil hash and a
    /// `problem`; the others are unaffected, except their sub-entities, whose hash includes it.
    public static func hashes(of model: Model) -> ModelVersionHashes {
        let entities = model.entities
        var inheritance = Inheritance(model: model, own: ownHashesOfEveryEntity(model))
        var hashed: [ModelVersionHashes.EntityHashes] = []
        hashed.reserveCapacity(entities.count)
        for (index, entity) in entities.enumerated() {
            let result = inheritance.entityHash(at: index)
            let own = inheritance.own[index]
            hashed.append(ModelVersionHashes.EntityHashes(
                name: entity.name, hash: result.hash, attributeHashes: own.attributes,
                relationshipHashes: own.relationships, unverified: result.unverified.rules, problem: result.problem))
        }
        return ModelVersionHashes(entities: hashed, digest: digest(of: hashed, writer: &inheritance.scratch.writer))
    }

    // MARK: Each entity by itself

    /// The hashes of the properties an entity declares itself, the unverified rules they went
    /// through, and, for an entity without a parent, its hash.
    struct OwnHashes {
        var attributes: [VersionHash?] = []
        var relationships: [VersionHash?] = []
        var unverified: UnverifiedRules = []
        /// The first property without a hash that is stored, with why.
        var problem: String?
        /// The entity's hash when it has no parent; nil when it has one (`Inheritance` finds it).
        var entity: EntityResult?
        /// Its own properties in name order, the first of a name only (attributes first), when
        /// it has a parent or is one: what `Inheritance` merges.
        var row: [RowEntry] = []
    }

    struct EntityResult {
        var hash: VersionHash?
        var unverified: UnverifiedRules
        var problem: String?
    }

    /// What hashing an entity reuses from one entity to the next, so that a large model is
    /// hashed with few allocations.
    struct Scratch {
        var writer = HashWriter()
        var names = NameBuffer()
        var storedHashes: [VersionHash] = []
    }

    /// Every entity's `OwnHashes`; on a large model, on every core (each depends on nothing but
    /// its entity, and together they are most of the work).
    static func ownHashesOfEveryEntity(_ model: Model) -> [OwnHashes] {
        // Read once here, not by each worker: the arrays' reference counts would be shared.
        let entities = model.entities
        let count = entities.count
        var hierarchy = entities.map { $0.parentEntityName != nil }
        for index in 0..<count {
            if let parent = model.parentIndex(ofEntityAt: index) { hierarchy[parent] = true }
        }
        let inHierarchy = hierarchy
        guard count >= 512 else {
            var scratch = Scratch()
            return entities.indices.map { index in
                ownHashes(of: entities[index], in: model, withRow: inHierarchy[index], scratch: &scratch)
            }
        }
        let chunkCount = 16
        return [OwnHashes](unsafeUninitializedCapacity: count) { buffer, initializedCount in
            let shared = DisjointWrites(buffer)
            ConcurrentWork.perform(iterations: chunkCount) { chunk in
                var scratch = Scratch()
                for index in (count * chunk / chunkCount)..<(count * (chunk + 1) / chunkCount) {
                    shared.buffer.initializeElement(
                        at: index, to: ownHashes(of: entities[index], in: model, withRow: inHierarchy[index], scratch: &scratch))
                }
            }
            initializedCount = count
        }
    }

    static func ownHashes(of entity: Entity, in model: Model, withRow: Bool, scratch: inout Scratch) -> OwnHashes {
        var result = OwnHashes()
        let attributes = entity.attributes, relationships = entity.relationships
        result.attributes.reserveCapacity(attributes.count)
        for attribute in attributes {
            let hashed = attributeHash(attribute, in: model, writer: &scratch.writer)
            result.attributes.append(hashed.hash)
            result.unverified.formUnion(hashed.unverified)
            if hashed.hash == nil, result.problem == nil, !attribute.isTransient {
                result.problem = "'\(entity.name).\(attribute.name)' \(hashed.problem ?? "has no hash")"
            }
        }
        result.relationships.reserveCapacity(relationships.count)
        for relationship in relationships {
            let hashed = relationshipHash(relationship, declaredBy: entity.name, writer: &scratch.writer)
            result.relationships.append(hashed.hash)
            result.unverified.formUnion(hashed.unverified)
            if hashed.hash == nil, result.problem == nil, !relationship.isTransient {
                result.problem = "'\(entity.name).\(relationship.name)' has no destination entity"
            }
        }
        scratch.names.removeAll()
        for attribute in attributes { scratch.names.append(attribute.name) }
        for relationship in relationships { scratch.names.append(relationship.name) }
        let order = scratch.names.positionsInNameOrder()
        if withRow {
            result.row = order.map { position in
                position < attributes.count
                    ? RowEntry(name: attributes[position].name, hash: result.attributes[position],
                               isTransient: attributes[position].isTransient)
                    : RowEntry(name: relationships[position - attributes.count].name,
                               hash: result.relationships[position - attributes.count],
                               isTransient: relationships[position - attributes.count].isTransient)
            }
        }
        guard entity.parentEntityName == nil else { return result }
        guard result.problem == nil else {
            result.entity = EntityResult(hash: nil, unverified: result.unverified, problem: result.problem)
            return result
        }
        // Its row is its own properties alone.
        var stored: [Int] = []
        stored.reserveCapacity(order.count)
        scratch.storedHashes.removeAll(keepingCapacity: true)
        for position in order {
            let isAttribute = position < attributes.count
            let isTransient = isAttribute ? attributes[position].isTransient
                : relationships[position - attributes.count].isTransient
            guard !isTransient else { continue }
            stored.append(position)
            // Stored properties without a hash made `problem` above.
            scratch.storedHashes.append((isAttribute ? result.attributes[position]
                : result.relationships[position - attributes.count])!)
        }
        var unverified = result.unverified
        if scratch.names.orderIsUnverified(stored) { unverified.insert(.nameOrder) }
        let hashed = entityHash(of: entity, parentHash: nil, storedHashes: scratch.storedHashes, writer: &scratch.writer)
        result.entity = EntityResult(hash: hashed.hash, unverified: unverified.union(hashed.unverified), problem: nil)
        return result
    }

    // MARK: Entities with a parent

    /// One property of an entity's row: its name, its hash, and whether it is transient.
    struct RowEntry {
        var name: String
        var hash: VersionHash?
        var isTransient: Bool
    }

    /// The hashes of the entities that have a parent, each after its parent's, from the rows
    /// of properties they inherit.
    struct Inheritance {
        let model: Model
        let own: [OwnHashes]
        var scratch = Scratch()
        private var results: [EntityResult?]
        private var visiting: [Bool]
        /// The whole row (own and inherited, transient included) of each entity a sub-entity
        /// needed, by entity index.
        private var rows: [Int: [RowEntry]] = [:]

        init(model: Model, own: [OwnHashes]) {
            self.model = model
            self.own = own
            results = own.map(\.entity)
            visiting = [Bool](repeating: false, count: own.count)
        }

        mutating func entityHash(at index: Int) -> EntityResult {
            if let done = results[index] { return done }
            let entity = model.entities[index]
            // Only an entity with a parent is left undecided by `ownHashes`.
            let parentName = entity.parentEntityName ?? ""
            guard !visiting[index] else {
                return EntityResult(hash: nil, unverified: [], problem: "'\(entity.name)' inherits from itself")
            }
            var unverified = own[index].unverified
            guard let parentIndex = model.parentIndex(ofEntityAt: index) else {
                return finish(index, EntityResult(hash: nil, unverified: unverified,
                    problem: "'\(entity.name)' names parent entity '\(parentName)', which the model does not have"))
            }
            visiting[index] = true
            let parent = entityHash(at: parentIndex)
            visiting[index] = false
            if let done = results[index] { return done }
            guard let parentHash = parent.hash else {
                return finish(index, EntityResult(hash: nil, unverified: unverified,
                    problem: parent.problem.map { "its parent cannot be hashed: \($0)" }
                        ?? "'\(entity.name)' inherits from itself"))
            }
            unverified.formUnion(parent.unverified)
            if let problem = own[index].problem {
                return finish(index, EntityResult(hash: nil, unverified: unverified, problem: problem))
            }
            // Own properties first, then the parent's whole row; of one name, the own one.
            let row = merged(own[index].row, self.row(of: parentIndex))
            rows[index] = row
            scratch.names.removeAll()
            scratch.storedHashes.removeAll(keepingCapacity: true)
            for property in row where !property.isTransient {
                // Inherited properties were hashed with their declaring entity, whose problems
                // made the parent's hash nil above.
                guard let hash = property.hash else {
                    return finish(index, EntityResult(hash: nil, unverified: unverified,
                                                      problem: "'\(entity.name).\(property.name)' has no hash"))
                }
                scratch.storedHashes.append(hash)
                scratch.names.append(property.name)
            }
            if scratch.names.orderIsUnverified(0..<scratch.names.count) { unverified.insert(.nameOrder) }
            let hashed = VersionHasher.entityHash(of: entity, parentHash: parentHash,
                                                  storedHashes: scratch.storedHashes, writer: &scratch.writer)
            return finish(index, EntityResult(hash: hashed.hash, unverified: unverified.union(hashed.unverified),
                                              problem: nil))
        }

        private mutating func finish(_ index: Int, _ result: EntityResult) -> EntityResult {
            results[index] = result
            return result
        }

        /// The whole row of an entity whose hash was found: own properties merged with those
        /// of its parents.
        private mutating func row(of index: Int) -> [RowEntry] {
            if let known = rows[index] { return known }
            var row = own[index].row
            // An entity with a hash has a parent that resolved and had a hash too.
            if let parentIndex = model.parentIndex(ofEntityAt: index) { row = merged(row, self.row(of: parentIndex)) }
            rows[index] = row
            return row
        }
    }

    /// Two rows in name order merged into one: of two properties of one name, `own`'s.
    static func merged(_ own: [RowEntry], _ inherited: [RowEntry]) -> [RowEntry] {
        guard !own.isEmpty else { return inherited }
        guard !inherited.isEmpty else { return own }
        var result: [RowEntry] = []
        result.reserveCapacity(own.count + inherited.count)
        var i = 0, j = 0
        while i < own.count || j < inherited.count {
            if j == inherited.count || (i < own.count && !precedes(inherited[j].name, own[i].name)) {
                if j < inherited.count && inherited[j].name == own[i].name { j += 1 }
                result.append(own[i])
                i += 1
            } else {
                result.append(inherited[j])
                j += 1
            }
        }
        return result
    }
}

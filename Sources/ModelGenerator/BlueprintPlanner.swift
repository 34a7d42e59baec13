/// Plans a synthetic model of `entityCount` entities from a seed: every choice comes from one
/// `SplitMix64`, so the same seed always gives the same model.
///
/// The plan is a well-made model, the kind a careful team ships:
/// - entities come in modules of five; every third module syncs with CloudKit and keeps to
///   what CloudKit accepts (optional or defaulted attributes, optional relationships, no
///   Deny, no ordered relationships, no uniqueness constraints, relationships only to other
///   synced entities);
/// - inheritance stays inside a module, at most three levels deep;
/// - every relationship has its inverse; property names are unique across a whole
///   hierarchy, so nothing clashes with an inherited property;
/// - a required to-one is paired with a Cascade on the other side (a Nullify would fail the
///   save), and many-to-many relationships Nullify (a Cascade would delete shared objects);
/// - Deny appears only in some local hierarchies, and no Cascade ever leads into one, so no
///   delete is refused half-way through a cascade.
///
/// Work is linear in `entityCount`: each entity looks back only at its own module or at a
/// bounded number of random earlier entities.
struct BlueprintPlanner {
    static let moduleSize = 5

    private var random: SplitMix64
    private let entityCount: Int
    private let seed: UInt64
    private var entities: [EntityBlueprint] = []
    /// The entity's name without its number (`invoice` for `Invoice2`), for property names.
    private var stems: [String] = []
    private var numbers: [String] = []
    private var hierarchyRoot: [Int] = []
    private var depth: [Int] = []
    /// True for entities of a hierarchy that may use Deny, and which no Cascade may reach.
    private var deniesDeletes: [Bool] = []
    /// Property names taken in each hierarchy, keyed by the root entity's index.
    private var namesTaken: [Int: Set<String>] = [:]
    private var nounUses: [String: Int] = [:]
    /// Earlier entities of each kind, for relationships that leave their module.
    private var cloudKitEntities: [Int] = []
    private var localEntities: [Int] = []
    private var nextLocalType = 0
    private var nextCloudKitType = 0

    init(entityCount: Int, seed: UInt64) {
        precondition(entityCount > 0, "a model needs at least one entity")
        self.entityCount = entityCount
        self.seed = seed
        self.random = SplitMix64(seed: seed)
    }

    mutating func plan() -> ModelBlueprint {
        entities.reserveCapacity(entityCount)
        for index in 0..<entityCount {
            addEntity(index)
        }
        var fetchRequests: [FetchRequestBlueprint] = []
        for index in stride(from: 0, to: entityCount, by: 25) {
            if let attribute = entities[index].attributes.first(where: \.isStored) {
                fetchRequests.append(FetchRequestBlueprint(
                    name: "All" + Vocabulary.uppercasingFirst(Vocabulary.plural(stems[index])) + numbers[index],
                    entity: index,
                    predicate: "\(attribute.name) != nil"))
            }
        }
        // Says where the model came from, so nobody mistakes it for an app's.
        let provenance = [
            UserInfoEntry(key: "generator", value: "momlint generate-model"),
            UserInfoEntry(key: "entities", value: String(entityCount)),
            UserInfoEntry(key: "seed", value: String(seed)),
        ]
        return ModelBlueprint(entities: entities, fetchRequests: fetchRequests, userInfo: provenance)
    }

    // MARK: Entities

    private mutating func addEntity(_ index: Int) {
        let module = index / Self.moduleSize
        let syncs = module % 3 == 1
        let noun = random.pick(Vocabulary.nouns)
        let use = nounUses[noun, default: 0] + 1
        nounUses[noun] = use
        let number = use == 1 ? "" : String(use)

        var entity = EntityBlueprint(name: noun + number, syncsWithCloudKit: syncs)
        let moduleStart = module * Self.moduleSize
        let parentCandidates = (moduleStart..<index).filter { depth[$0] < 2 }
        if !parentCandidates.isEmpty && random.chance(30) {
            let parent = random.pick(parentCandidates)
            entity.parent = parent
            if !entities[parent].isAbstract && random.chance(40) { entities[parent].isAbstract = true }
        }
        let root = entity.parent.map { hierarchyRoot[$0] } ?? index
        entities.append(entity)
        stems.append(Vocabulary.lowercasingFirst(noun))
        numbers.append(number)
        hierarchyRoot.append(root)
        depth.append(entity.parent.map { depth[$0] + 1 } ?? 0)
        deniesDeletes.append(entity.parent.map { deniesDeletes[$0] } ?? (!syncs && random.chance(20)))

        addAttributes(to: index)
        addRelationships(from: index, moduleStart: moduleStart)
        addIndexesAndConstraints(to: index)
        if !syncs && random.chance(5) { addFetchedProperty(to: index) }
        if random.chance(15) {
            entities[index].userInfo.append(UserInfoEntry(
                key: "remoteName", value: Vocabulary.plural(stems[index]) + (numbers[index].isEmpty ? "" : "_" + numbers[index])))
        }
        if syncs { cloudKitEntities.append(index) } else { localEntities.append(index) }
    }

    /// A name for a new property of `entity`, free across its whole hierarchy, then taken.
    private mutating func claimName(_ wanted: String, in entity: Int, roles: [String] = []) -> String {
        let root = hierarchyRoot[entity]
        var candidates = [wanted] + roles.map { $0 + Vocabulary.uppercasingFirst(wanted) }
        var suffix = 2
        while let candidate = candidates.first, namesTaken[root]?.contains(candidate) == true {
            candidates.removeFirst()
            if candidates.isEmpty {
                candidates.append(wanted + String(suffix))
                suffix += 1
            }
        }
        namesTaken[root, default: []].insert(candidates[0])
        return candidates[0]
    }

    // MARK: Attributes

    private mutating func addAttributes(to index: Int) {
        let syncs = entities[index].syncsWithCloudKit
        let count = (entities[index].parent == nil ? 3 : 1) + random.below(6)
        for _ in 0..<count {
            let type: GeneratedAttributeType
            if syncs {
                type = GeneratedAttributeType.cloudKitSafe[nextCloudKitType % GeneratedAttributeType.cloudKitSafe.count]
                nextCloudKitType += 1
            } else {
                type = GeneratedAttributeType.allCases[nextLocalType % GeneratedAttributeType.allCases.count]
                nextLocalType += 1
            }
            let name = claimName(random.pick(Vocabulary.attributeNames(for: type)), in: index)
            entities[index].attributes.append(makeAttribute(name, type, syncs: syncs))
        }
        // A derived attribute needs a stored one to derive from (SQLite stores only).
        if !syncs, random.chance(10),
           let source = entities[index].attributes.first(where: { $0.type == .string && $0.isStored }) {
            var derived = AttributeBlueprint(name: claimName(source.name + "Uppercased", in: index), type: .string)
            derived.derivationExpression = "uppercase:(\(source.name))"
            entities[index].attributes.append(derived)
        }
    }

    private mutating func makeAttribute(_ name: String, _ type: GeneratedAttributeType, syncs: Bool) -> AttributeBlueprint {
        var attribute = AttributeBlueprint(name: name, type: type)
        switch type {
        case .undefined:
            // Undefined is allowed only on transient attributes.
            attribute.isTransient = true
        case .integer16, .integer32, .integer64:
            attribute.isOptional = random.chance(60)
            attribute.usesScalarValueType = true
            if !attribute.isOptional || random.chance(80) { attribute.defaultValue = "0" }
            if random.chance(20) {
                attribute.minValue = "0"
                attribute.maxValue = type == .integer16 ? "1000" : "100000"
            }
        case .decimal:
            attribute.isOptional = random.chance(70)
            if !attribute.isOptional || random.chance(70) { attribute.defaultValue = "0.0" }
        case .double, .float:
            attribute.isOptional = random.chance(60)
            attribute.usesScalarValueType = true
            if !attribute.isOptional || random.chance(80) { attribute.defaultValue = "0.0" }
        case .string:
            attribute.isOptional = random.chance(75)
            if !attribute.isOptional {
                attribute.defaultValue = "Untitled"
                if random.chance(30) {
                    attribute.minValue = "1"
                    attribute.maxValue = "200"
                }
            } else if name.hasPrefix("email") {
                attribute.regularExpression = "[^@ ]+@[^@ ]+"
            }
            attribute.isSpotlightIndexed = random.chance(10)
            attribute.allowsCloudEncryption = syncs && random.chance(15)
        case .boolean:
            attribute.isOptional = random.chance(50)
            attribute.usesScalarValueType = true
            if !attribute.isOptional || random.chance(80) { attribute.defaultValue = "NO" }
        case .date:
            attribute.isOptional = random.chance(85)
            attribute.usesScalarValueType = false
            // 2023-01-01 00:00:00 UTC, in seconds since 2001-01-01.
            if !attribute.isOptional || random.chance(10) { attribute.defaultDateTimeInterval = "694224000" }
        case .binary:
            attribute.allowsExternalBinaryDataStorage = random.chance(50)
        case .uuid:
            attribute.usesScalarValueType = false
        case .uri:
            break
        case .transformable:
            attribute.valueTransformerName = "NSSecureUnarchiveFromData"
            attribute.customClassName = random.pick(["[String]", "[String: String]", "[NSNumber]"])
        case .composite:
            attribute.compositeName = "Address"
        }
        if attribute.isStored && random.chance(5) { attribute.preservesValueInHistoryOnDeletion = true }
        if random.chance(3) { attribute.elementID = "legacy" + Vocabulary.uppercasingFirst(name) }
        if random.chance(5) {
            attribute.userInfo.append(UserInfoEntry(key: "jsonKey", value: Self.snakeCased(name)))
        }
        return attribute
    }

    /// `createdAt` → `created_at`, the spelling a JSON API would use.
    static func snakeCased(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase {
                result += "_" + character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }

    // MARK: Relationships

    private enum Cardinality: CaseIterable {
        /// The new entity holds a to-one; the older one the to-many inverse (Comment.post / Post.comments).
        case manyToOne
        /// The new entity holds the to-many.
        case oneToMany
        case oneToOne
        case manyToMany
    }

    private mutating func addRelationships(from index: Int, moduleStart: Int) {
        let syncs = entities[index].syncsWithCloudKit
        // Never into the entity's own hierarchy: an inverse there would be inherited back.
        let nearby = (moduleStart..<index).filter { hierarchyRoot[$0] != hierarchyRoot[index] }
        let sameKind = syncs ? cloudKitEntities : localEntities
        let count = 1 + random.below(3)
        for _ in 0..<count {
            let destination: Int
            if !nearby.isEmpty && (sameKind.isEmpty || random.chance(70)) {
                destination = random.pick(nearby)
            } else if !sameKind.isEmpty {
                destination = random.pick(sameKind)
                guard hierarchyRoot[destination] != hierarchyRoot[index] else { continue }
            } else {
                return
            }
            let roll = random.below(100)
            let cardinality: Cardinality = roll < 50 ? .manyToOne : roll < 65 ? .oneToMany : roll < 80 ? .oneToOne : .manyToMany
            connect(index, to: destination, cardinality, syncs: syncs)
        }
    }

    private mutating func connect(_ source: Int, to destination: Int, _ cardinality: Cardinality, syncs: Bool) {
        let sourceToMany = cardinality == .oneToMany || cardinality == .manyToMany
        let destinationToMany = cardinality == .manyToOne || cardinality == .manyToMany
        let forward = claimName(propertyName(pointingAt: destination, toMany: sourceToMany), in: source,
                                roles: Vocabulary.relationshipRoles)
        let backward = claimName(propertyName(pointingAt: source, toMany: destinationToMany), in: destination,
                                 roles: Vocabulary.relationshipRoles)
        var outgoing = RelationshipBlueprint(name: forward, destination: destination, inverseName: backward,
                                             isToMany: sourceToMany)
        var incoming = RelationshipBlueprint(name: backward, destination: source, inverseName: forward,
                                             isToMany: destinationToMany)
        switch cardinality {
        case .manyToOne:
            shapeOneToMany(owner: &incoming, member: &outgoing, syncs: syncs)
        case .oneToMany:
            shapeOneToMany(owner: &outgoing, member: &incoming, syncs: syncs)
        case .oneToOne:
            if !deniesDeletes[destination] && random.chance(30) { outgoing.deletionRule = .cascade }
        case .manyToMany:
            break  // Nullify on both sides: a Cascade would delete objects others still share.
        }
        if random.chance(4) { outgoing.userInfo.append(UserInfoEntry(key: "jsonKey", value: Self.snakeCased(forward))) }
        entities[source].relationships.append(outgoing)
        entities[destination].relationships.append(incoming)
    }

    /// Shapes a one-to-many pair: `owner` holds the to-many, `member` the to-one back.
    private mutating func shapeOneToMany(owner: inout RelationshipBlueprint, member: inout RelationshipBlueprint,
                                         syncs: Bool) {
        // Each side's destination is the other side's entity.
        let mayCascade = !deniesDeletes[owner.destination]
        let mayDeny = deniesDeletes[member.destination]
        let roll = random.below(100)
        owner.deletionRule = mayDeny && roll >= 60 ? .deny : mayCascade && roll < 35 ? .cascade : .nullify
        guard !syncs else { return }
        if random.chance(15) { owner.isOrdered = true }
        if random.chance(5) { owner.maxCount = 5 + random.below(20) }
        // A required to-one must not be nullified under it: delete the members with their owner.
        if mayCascade && owner.deletionRule != .deny && random.chance(15) {
            member.isOptional = false
            owner.deletionRule = .cascade
        }
    }

    /// `invoice2` for a to-one to `Invoice2`, `invoices2` for a to-many.
    private func propertyName(pointingAt entity: Int, toMany: Bool) -> String {
        (toMany ? Vocabulary.plural(stems[entity]) : stems[entity]) + numbers[entity]
    }

    // MARK: Indexes, constraints, fetched properties

    private mutating func addIndexesAndConstraints(to index: Int) {
        let stored = entities[index].attributes.filter(\.isStored)
        guard !stored.isEmpty else { return }
        if random.chance(25) {
            var members = [random.pick(stored).name]
            if stored.count > 1 && random.chance(40), let second = stored.first(where: { $0.name != members[0] }) {
                members.append(second.name)
            }
            entities[index].fetchIndexes.append(members)
        }
        // CloudKit refuses uniqueness constraints; Apple advises one per hierarchy, on its root.
        let keys = stored.filter { [.string, .uuid, .integer32, .integer64].contains($0.type) }
        if !entities[index].syncsWithCloudKit && entities[index].parent == nil && !keys.isEmpty && random.chance(30) {
            entities[index].uniquenessConstraints.append([random.pick(keys).name])
        }
    }

    private mutating func addFetchedProperty(to index: Int) {
        guard !localEntities.isEmpty else { return }
        let destination = random.pick(localEntities)
        guard let attribute = entities[destination].attributes.first(where: \.isStored) else { return }
        let name = claimName("recent" + Vocabulary.uppercasingFirst(propertyName(pointingAt: destination, toMany: true)),
                             in: index)
        entities[index].fetchedProperties.append(FetchedPropertyBlueprint(
            name: name, destination: destination, predicate: "\(attribute.name) != nil"))
    }
}

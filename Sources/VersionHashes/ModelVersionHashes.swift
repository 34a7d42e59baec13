import DataModel

/// Every version hash of one model, as `VersionHasher` computes them: what Core Data would
/// compute for the compiled model.
public struct ModelVersionHashes: Sendable {
    /// One entity's hashes.
    public struct EntityHashes: Sendable {
        public var name: String
        /// The entity's `versionHash`; nil when it cannot be computed (`problem` says why).
        public var hash: VersionHash?
        /// The hash of each attribute the entity itself declares, in document order (nil when
        /// that attribute has none: an unknown type, a missing composite).
        public var attributeHashes: [VersionHash?]
        /// The hash of each relationship the entity itself declares, in document order (nil
        /// without a destination).
        public var relationshipHashes: [VersionHash?]
        /// The rules of the serialization the entity's hash went through that no ground truth
        /// has confirmed (empty for a hash computed by verified rules alone).
        public var unverified: Set<UnverifiedRule>
        /// Why `hash` is nil, lowercase, quoting the element; nil when there is a hash.
        public var problem: String?
    }

    /// One per entity of the model, in the model's order.
    public var entities: [EntityHashes]
    /// `NSStoreModelVersionHashesDigest`; nil when some entity has no hash.
    public var digest: ModelDigest?

    /// The hashes of the first entity of that name, as Core Data's `entitiesByName` keeps one.
    public func entity(named name: String) -> EntityHashes? {
        entities.first { $0.name == name }
    }

    /// Entity name → hash, every entity that has one (the first of each name): what a store
    /// written by this model keeps as `NSStoreModelVersionHashes`.
    public var entityHashesByName: [String: VersionHash] {
        var result: [String: VersionHash] = [:]
        result.reserveCapacity(entities.count)
        for entity in entities {
            if result[entity.name] == nil, let hash = entity.hash { result[entity.name] = hash }
        }
        return result
    }

    /// Every entity's unverified rules, together.
    public var unverified: Set<UnverifiedRule> {
        entities.reduce(into: []) { $0.formUnion($1.unverified) }
    }

    /// The entities without a hash, with why.
    public var problems: [(entity: String, problem: String)] {
        entities.compactMap { entity in entity.problem.map { (entity.name, $0) } }
    }

    /// The names of `versions` with the same digest, one schema to Core Data (a store written by
    /// one opens with the others without migration): each group of two or more, in the given order.
    public static func identicalGroups(_ versions: [(name: String, hashes: ModelVersionHashes)]) -> [[String]] {
        var groups: [ModelDigest: [String]] = [:]
        var order: [ModelDigest] = []
        for version in versions {
            guard let digest = version.hashes.digest else { continue }
            if groups[digest] == nil { order.append(digest) }
            groups[digest, default: []].append(version.name)
        }
        return order.compactMap { groups[$0]!.count > 1 ? groups[$0]! : nil }
    }
}

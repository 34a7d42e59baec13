import Crypto
import DataModel

/// Computes Core Data's version hashes from a parsed model: the one place in momlint that does.
///
/// Apple documents which properties enter each hash (the `versionHash` pages of
/// NSEntityDescription, NSPropertyDescription, NSAttributeDescription and
/// NSRelationshipDescription) but not the bytes. The bytes below were established by
/// observation and reproduce exactly the hashes Core Data wrote into real stores, compiled
/// models and CoreStore version locks (framework versions from 2013 to 2024); the golden test
/// (`VersionHashGoldenTests`) checks them. docs/version-hashes.md explains them in words.
///
/// Conventions: SHA-256 throughout (SHA-512 for the model's digest); a name is its UTF-8 bytes
/// with no length and no terminator; integers are little-endian.
public enum VersionHasher {
    /// Every hash of the model. Entities that cannot be hashed (an unknown attribute type, a
    /// relationship without a destination, a missing or cyclic parent) have a nil hash and a
    /// `problem`; the others are unaffected, except their sub-entities, whose hash includes it.
    public static func hashes(of model: Model) -> ModelVersionHashes {
        let entities = model.entities
        let own = ownHashesOfEveryEntity(model)
        var writer = HashWriter()
        var isParent = [Bool](repeating: false, count: entities.count)
        for index in entities.indices {
            if let parent = model.parentIndex(ofEntityAt: index) { isParent[parent] = true }
        }
        var state = EntityState(results: [EntityResult?](repeating: nil, count: entities.count),
                                visiting: [Bool](repeating: false, count: entities.count),
                                rows: [Int: [RowEntry]](), isParent: isParent)
        for index in entities.indices {
            _ = entityHash(at: index, in: model, own: own, state: &state, writer: &writer)
        }
        var hashed: [ModelVersionHashes.EntityHashes] = []
        hashed.reserveCapacity(entities.count)
        for (index, entity) in entities.enumerated() {
            let result = state.results[index]!
            hashed.append(ModelVersionHashes.EntityHashes(
                name: entity.name, hash: result.hash, attributeHashes: own[index].attributes,
                relationshipHashes: own[index].relationships, unverified: result.unverified, problem: result.problem))
        }
        return ModelVersionHashes(entities: hashed, digest: digest(of: hashed, writer: &writer))
    }

    /// Every entity's own property hashes; on a large model, on every core (they depend on
    /// nothing but the entity, and are most of the work).
    static func ownHashesOfEveryEntity(_ model: Model) -> [OwnHashes] {
        let count = model.entities.count
        guard count >= 512 else {
            var writer = HashWriter()
            return model.entities.map { ownHashes(of: $0, in: model, writer: &writer) }
        }
        let slots = UnsafeMutablePointer<OwnHashes>.allocate(capacity: count)
        defer { slots.deallocate() }
        let shared = SharedSlots(base: slots)
        let chunkCount = 16
        ConcurrentWork.perform(iterations: chunkCount) { chunk in
            var writer = HashWriter()
            let range = (count * chunk / chunkCount)..<(count * (chunk + 1) / chunkCount)
            for index in range {
                (shared.base + index).initialize(to: ownHashes(of: model.entities[index], in: model, writer: &writer))
            }
        }
        var result: [OwnHashes] = []
        result.reserveCapacity(count)
        for index in 0..<count { result.append((slots + index).move()) }
        return result
    }

    /// Where each worker of `ownHashesOfEveryEntity` writes its entities' results: every slot
    /// is written by exactly one worker, and read after all have finished.
    struct SharedSlots: @unchecked Sendable {
        let base: UnsafeMutablePointer<OwnHashes>
    }

    // MARK: Properties

    /// The hashes of the properties an entity declares itself, and the unverified rules they
    /// went through.
    struct OwnHashes {
        var attributes: [VersionHash?]
        var relationships: [VersionHash?]
        var unverified: Set<UnverifiedRule>
        var problem: String?
        /// The entity's own attributes and relationships in name order, the first of a name only.
        var row: [RowEntry] = []
    }

    /// One property of an entity's row: its name, its hash, and whether it is transient.
    struct RowEntry {
        var name: String
        var hash: VersionHash?
        var isTransient: Bool
    }

    static func ownHashes(of entity: Entity, in model: Model, writer: inout HashWriter) -> OwnHashes {
        var result = OwnHashes(attributes: [], relationships: [], unverified: [], problem: nil)
        result.attributes.reserveCapacity(entity.attributes.count)
        for attribute in entity.attributes {
            let hashed = attributeHash(attribute, in: model, writer: &writer)
            result.attributes.append(hashed.hash)
            result.unverified.formUnion(hashed.unverified)
            if hashed.hash == nil, result.problem == nil, !attribute.isTransient {
                result.problem = "'\(entity.name).\(attribute.name)' \(hashed.problem ?? "has no hash")"
            }
        }
        result.relationships.reserveCapacity(entity.relationships.count)
        for relationship in entity.relationships {
            let hashed = relationshipHash(relationship, declaredBy: entity.name, writer: &writer)
            result.relationships.append(hashed.hash)
            result.unverified.formUnion(hashed.unverified)
            if hashed.hash == nil, result.problem == nil, !relationship.isTransient {
                result.problem = "'\(entity.name).\(relationship.name)' has no destination entity"
            }
        }
        // In name order; of two properties of one name, the first declared (attributes first).
        // Positions are sorted, not the entries: a tuple of an entry and its position was copied
        // and destroyed through the runtime's generic tuple witnesses at every step of the sort.
        var declared: [RowEntry] = []
        declared.reserveCapacity(entity.attributes.count + entity.relationships.count)
        for (position, attribute) in entity.attributes.enumerated() {
            declared.append(RowEntry(name: attribute.name, hash: result.attributes[position], isTransient: attribute.isTransient))
        }
        for (position, relationship) in entity.relationships.enumerated() {
            declared.append(RowEntry(name: relationship.name, hash: result.relationships[position],
                                     isTransient: relationship.isTransient))
        }
        let order = declared.indices.sorted { left, right in
            let leftName = declared[left].name, rightName = declared[right].name
            return leftName == rightName ? left < right : precedes(leftName, rightName)
        }
        result.row.reserveCapacity(declared.count)
        for position in order where result.row.last?.name != declared[position].name {
            result.row.append(declared[position])
        }
        return result
    }

    /// A property hash, with the unverified rules it went through, or why it has none.
    public struct PropertyHash: Sendable {
        public var hash: VersionHash?
        public var unverified: Set<UnverifiedRule>
        public var problem: String?
    }

    /// `NSAttributeDescription.versionHash`. Apple: the hash "uses the name, optionality,
    /// transience, read-only flag, version hash modifier" of the property, and of an attribute
    /// also its type, whether it allows external binary storage and whether its value is
    /// preserved after deletion. Not included: the default value, the value transformer, the
    /// custom class, validation, indexing and Spotlight flags, the renaming identifier, userInfo.
    ///
    /// SHA-256 of: the property base hash (`propertyBaseHash`) ‖ the type's code as 4 bytes ‖
    /// `01` when external binary storage is allowed ‖ `01` when preserved after deletion.
    /// A derived attribute hashes its derivation instead (`derivedAttributeHash`); a composite
    /// one its elements (`compositeAttributeHash`).
    public static func attributeHash(_ attribute: Attribute, in model: Model) -> PropertyHash {
        var writer = HashWriter()
        return attributeHash(attribute, in: model, writer: &writer)
    }

    static func attributeHash(_ attribute: Attribute, in model: Model, writer: inout HashWriter,
                              depth: Int = 0) -> PropertyHash {
        if attribute.isDerived, let expression = attribute.derivationExpression {
            return derivedAttributeHash(expression: expression, writer: &writer)
        }
        let type = attribute.attributeType ?? .undefined
        if type == .composite {
            return compositeAttributeHash(attribute, in: model, writer: &writer, depth: depth)
        }
        guard let code = typeCode(type) else {
            return PropertyHash(hash: nil, unverified: [],
                                problem: "has attribute type '\(type.xmlName)', which Core Data does not know")
        }
        let unverified: Set<UnverifiedRule> = attribute.allowsExternalBinaryDataStorage ? [.externalBinaryStorage] : []
        // Models repeat attributes (an `id`, a `name`, a `createdAt` in many entities): the
        // hash is a function of these inputs alone, so each distinct one is hashed once.
        let key = AttributeInputs(name: attribute.name, flags: propertyFlags(attribute.isOptional, attribute.isTransient),
                                  versionHashModifier: attribute.versionHashModifier, typeCode: UInt32(code),
                                  external: attribute.allowsExternalBinaryDataStorage,
                                  preserved: attribute.preservesValueInHistoryOnDeletion)
        if let known = writer.attributeHashes[key] { return PropertyHash(hash: known, unverified: unverified, problem: nil) }
        let base = propertyBaseHash(name: attribute.name, isOptional: attribute.isOptional,
                                    isTransient: attribute.isTransient,
                                    versionHashModifier: attribute.versionHashModifier, writer: &writer)
        writer.start()
        writer.append(base)
        writer.append(UInt32(code))
        if attribute.allowsExternalBinaryDataStorage { writer.append(byte: 1) }
        if attribute.preservesValueInHistoryOnDeletion { writer.append(byte: 1) }
        let hash = writer.sha256()
        writer.attributeHashes[key] = hash
        return PropertyHash(hash: hash, unverified: unverified, problem: nil)
    }

    /// Everything an attribute's hash is computed from (not derived, not composite).
    struct AttributeInputs: Hashable {
        var name: String
        var flags: UInt16
        var versionHashModifier: String?
        var typeCode: UInt32
        var external: Bool
        var preserved: Bool
    }

    static func propertyFlags(_ isOptional: Bool, _ isTransient: Bool) -> UInt16 {
        (isOptional ? 1 : 0) | (isTransient ? 2 : 0)
    }

    /// `NSAttributeType` raw values (Apple's `NSAttributeType` enumeration); nil for a type
    /// Core Data does not know.
    public static func typeCode(_ type: AttributeType) -> Int? {
        switch type {
        case .undefined: 0
        case .integer16: 100
        case .integer32: 200
        case .integer64: 300
        case .decimal: 400
        case .double: 500
        case .float: 600
        case .string: 700
        case .boolean: 800
        case .date: 900
        case .binary: 1000
        case .uuid: 1100
        case .uri: 1200
        case .transformable: 1800
        case .objectID: 2000
        case .composite: 2100
        case .unknown: nil
        }
    }

    /// A derived attribute (NSDerivedAttributeDescription): SHA-256 of its derivation's
    /// canonical text alone; its name, flags and type are not fed in. Verified for a key path
    /// ending in `.@count`, which Core Data writes as `count:(path)`; every other derivation is
    /// hashed as written (`UnverifiedRule.derivationExpression`), and a filtering predicate,
    /// which `contents` files do not carry, is not fed in.
    static func derivedAttributeHash(expression: String, writer: inout HashWriter) -> PropertyHash {
        let canonical = canonicalDerivation(expression)
        writer.start()
        writer.append(canonical.text)
        return PropertyHash(hash: writer.sha256(), unverified: canonical.verified ? [] : [.derivationExpression],
                            problem: nil)
    }

    /// The text Core Data hashes for a derivation: `path.@count` → `count:(path)` (verified),
    /// `path.@sum` → `sum:(path)`, anything else as written.
    public static func canonicalDerivation(_ expression: String) -> (text: String, verified: Bool) {
        let trimmed = expression.trimmingWhitespace()
        for (suffix, function) in [(".@count", "count"), (".@sum", "sum")] where trimmed.hasSuffix(suffix) {
            let path = trimmed.dropLast(suffix.count)
            if !path.isEmpty { return ("\(function):(\(path))", function == "count") }
        }
        return (String(trimmed), false)
    }

    /// A composite attribute (Xcode 15+; `UnverifiedRule.compositeAttribute`): SHA-256 of the
    /// hashes of its leaf element attributes, nested composites flattened, in name order,
    /// transient ones skipped.
    static func compositeAttributeHash(_ attribute: Attribute, in model: Model, writer: inout HashWriter,
                                       depth: Int) -> PropertyHash {
        var leaves: [(name: String, hash: VersionHash)] = []
        var unverified: Set<UnverifiedRule> = [.compositeAttribute]
        func collect(_ compositeName: String?, depth: Int) -> String? {
            guard depth < 32 else { return "nests composites more than 32 deep" }
            guard let compositeName, let composite = model.composites.first(where: { $0.name == compositeName }) else {
                return "names composite '\(compositeName ?? "")', which the model does not have"
            }
            for element in composite.attributes where !element.isTransient {
                if element.attributeType == .composite {
                    if let problem = collect(element.compositeName, depth: depth + 1) { return problem }
                    continue
                }
                let hashed = attributeHash(element, in: model, writer: &writer, depth: depth + 1)
                unverified.formUnion(hashed.unverified)
                guard let hash = hashed.hash else { return hashed.problem }
                leaves.append((element.name, hash))
            }
            return nil
        }
        if let problem = collect(attribute.compositeName, depth: depth) {
            return PropertyHash(hash: nil, unverified: unverified, problem: problem)
        }
        leaves.sort { precedes($0.name, $1.name) }
        writer.start()
        for leaf in leaves { writer.append(leaf.hash) }
        return PropertyHash(hash: writer.sha256(), unverified: unverified, problem: nil)
    }

    /// `NSRelationshipDescription.versionHash`. Apple: besides the property's own inputs, "the
    /// name of the destination entity and the inverse relationship, and the min and max count".
    /// Not included: the delete rule; to-many shows only through `maxCount`.
    ///
    /// SHA-256 of: the property base hash ‖ the destination entity's name ‖ the inverse's name
    /// (left out when the relationship is its own inverse: `UnverifiedRule.selfInverseRelationship`)
    /// ‖ `maxCount` as 4 bytes ‖ `minCount` as 4 bytes ‖ `01 00` when ordered. Counts are cut to
    /// 32 bits (`Int.max` is `FF FF FF FF`); an absent `maxCount` is 1 for a to-one and 0
    /// (unbounded) for a to-many, an absent `minCount` 0.
    public static func relationshipHash(_ relationship: Relationship, declaredBy entityName: String) -> PropertyHash {
        var writer = HashWriter()
        return relationshipHash(relationship, declaredBy: entityName, writer: &writer)
    }

    static func relationshipHash(_ relationship: Relationship, declaredBy entityName: String,
                                 writer: inout HashWriter) -> PropertyHash {
        guard let destination = relationship.destinationEntityName, !destination.isEmpty else {
            return PropertyHash(hash: nil, unverified: [], problem: "has no destination entity")
        }
        let base = propertyBaseHash(name: relationship.name, isOptional: relationship.isOptional,
                                    isTransient: relationship.isTransient,
                                    versionHashModifier: relationship.versionHashModifier, writer: &writer)
        var unverified: Set<UnverifiedRule> = []
        writer.start()
        writer.append(base)
        writer.append(destination)
        if let inverse = relationship.inverseName, !inverse.isEmpty {
            let inverseEntity = relationship.inverseEntityName ?? destination
            if inverse == relationship.name && inverseEntity == entityName {
                unverified.insert(.selfInverseRelationship)
            } else {
                writer.append(inverse)
            }
        }
        let maxCount = relationship.maxCount ?? (relationship.isToMany ? 0 : 1)
        writer.append(UInt32(truncatingIfNeeded: maxCount))
        writer.append(UInt32(truncatingIfNeeded: relationship.minCount ?? 0))
        if relationship.isOrdered {
            writer.append(byte: 1)
            writer.append(byte: 0)
        }
        return PropertyHash(hash: writer.sha256(), unverified: unverified, problem: nil)
    }

    /// `NSPropertyDescription.versionHash`, the start of every attribute's and relationship's:
    /// SHA-256 of the name ‖ a 2-byte flag word (bit 0 optional, bit 1 transient, bit 2
    /// read-only, which `contents` files never set) ‖ the `versionHashModifier`, when set.
    static func propertyBaseHash(name: String, isOptional: Bool, isTransient: Bool, versionHashModifier: String?,
                                 writer: inout HashWriter) -> VersionHash {
        // Not remembered by its inputs: relationships, the only other callers, seldom repeat theirs
        // (each names its destination), and remembering cost more than it saved.
        writer.start()
        writer.append(name)
        writer.append(propertyFlags(isOptional, isTransient))
        if let versionHashModifier, !versionHashModifier.isEmpty { writer.append(versionHashModifier) }
        return writer.sha256()
    }

    // MARK: Entities

    struct EntityResult {
        var hash: VersionHash?
        var unverified: Set<UnverifiedRule>
        var problem: String?
    }

    /// `NSEntityDescription.versionHash`. Apple: it uses "the name of the entity, the version
    /// hash of its parent entity (if any), whether it is abstract, the version hash modifier,
    /// and the version hashes of its properties"; not the class name, userInfo, fetch indexes
    /// or the renaming identifier.
    ///
    /// SHA-256 of: the name ‖ `01` if abstract else `00` ‖ the parent's hash, when it has a
    /// parent ‖ the hash of every property it has, own and inherited (an own property of the
    /// same name wins), that is not transient, in name order (by UTF-16 code unit), fetched
    /// properties skipped ‖ its `versionHashModifier`, when set
    /// (`UnverifiedRule.entityVersionHashModifier`) ‖ when it declares uniqueness constraints
    /// itself, each constraint's property names joined with `.`, the strings sorted.
    struct EntityState {
        var results: [EntityResult?]
        var visiting: [Bool]
        /// The whole row (own and inherited, transient included) of each entity that is a parent.
        var rows: [Int: [RowEntry]]
        var isParent: [Bool]
    }

    static func entityHash(at index: Int, in model: Model, own: [OwnHashes], state: inout EntityState,
                           writer: inout HashWriter) -> EntityResult {
        if let done = state.results[index] { return done }
        let entity = model.entities[index]
        func finish(_ result: EntityResult) -> EntityResult {
            state.results[index] = result
            return result
        }
        guard !state.visiting[index] else {
            return EntityResult(hash: nil, unverified: [], problem: "'\(entity.name)' inherits from itself")
        }
        var unverified = own[index].unverified
        var parentHash: VersionHash?
        // Own properties first, then the parent's whole row; of one name, the own one.
        var row = own[index].row
        if let parentName = entity.parentEntityName {
            guard let parentIndex = model.parentIndex(ofEntityAt: index) else {
                return finish(EntityResult(hash: nil, unverified: unverified,
                    problem: "'\(entity.name)' names parent entity '\(parentName)', which the model does not have"))
            }
            state.visiting[index] = true
            let parent = entityHash(at: parentIndex, in: model, own: own, state: &state, writer: &writer)
            state.visiting[index] = false
            if let done = state.results[index] { return done }
            guard let hash = parent.hash, let parentRow = state.rows[parentIndex] else {
                return finish(EntityResult(hash: nil, unverified: unverified,
                    problem: parent.problem.map { "its parent cannot be hashed: \($0)" }
                        ?? "'\(entity.name)' inherits from itself"))
            }
            parentHash = hash
            unverified.formUnion(parent.unverified)
            row = merged(row, parentRow)
        }
        if state.isParent[index] { state.rows[index] = row }
        if let problem = own[index].problem {
            return finish(EntityResult(hash: nil, unverified: unverified, problem: problem))
        }
        writer.start()
        writer.append(entity.name)
        writer.append(byte: entity.isAbstract ? 1 : 0)
        if let parentHash { writer.append(parentHash) }
        var storedNames: [String] = []
        storedNames.reserveCapacity(row.count)
        for property in row where !property.isTransient {
            // Inherited properties were hashed with their declaring entity, whose problems
            // made the parent's hash nil above.
            guard let hash = property.hash else {
                return finish(EntityResult(hash: nil, unverified: unverified,
                                           problem: "'\(entity.name).\(property.name)' has no hash"))
            }
            writer.append(hash)
            storedNames.append(property.name)
        }
        if orderIsUnverified(storedNames) { unverified.insert(.nameOrder) }
        if let modifier = entity.versionHashModifier, !modifier.isEmpty {
            writer.append(modifier)
            unverified.insert(.entityVersionHashModifier)
        }
        if !entity.uniquenessConstraints.isEmpty {
            let constraints = entity.uniquenessConstraints.map { $0.propertyNames.joined(separator: ".") }
                .sorted(by: precedes)
            for constraint in constraints { writer.append(constraint) }
        }
        return finish(EntityResult(hash: writer.sha256(), unverified: unverified, problem: nil))
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

    // MARK: The model

    /// `NSStoreModelVersionHashesDigest`: SHA-512 of, for every entity in name order, its name ‖
    /// its hash (the first entity of each name). Nil when some entity has no hash.
    static func digest(of entities: [ModelVersionHashes.EntityHashes], writer: inout HashWriter) -> ModelDigest? {
        var byName: [String: VersionHash] = [:]
        byName.reserveCapacity(entities.count)
        for entity in entities {
            guard let hash = entity.hash else { return nil }
            if byName[entity.name] == nil { byName[entity.name] = hash }
        }
        writer.start()
        for name in byName.keys.sorted(by: precedes) {
            writer.append(name)
            writer.append(byName[name]!)
        }
        return writer.sha512()
    }

    /// Name order as Core Data sorts: by UTF-16 code unit, case-sensitive.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        // UTF-8 bytes sort as code points, which sort as UTF-16 code units except where a
        // character above U+FFFF meets one from U+E000 to U+FFFF (lead bytes EE and up on both
        // sides): only then are the UTF-16 units compared.
        var lhs = lhs, rhs = rhs
        let decided: Bool? = lhs.withUTF8 { left in
            rhs.withUTF8 { right in
                let common = min(left.count, right.count)
                var index = 0
                while index < common {
                    let l = left[index], r = right[index]
                    if l != r { return l >= 0xEE && r >= 0xEE ? nil : l < r }
                    index += 1
                }
                return left.count < right.count
            }
        }
        return decided ?? lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// True when names in this order are not all ASCII, or two neighbours would swap under a
    /// case-insensitive comparison: the cases no ground truth has covered.
    static func orderIsUnverified(_ names: [String]) -> Bool {
        var previous: String?
        for var name in names {
            let ascii = name.withUTF8 { $0.allSatisfy { $0 < 0x80 } }
            guard ascii else { return true }
            if var before = previous {
                let swaps = before.withUTF8 { left in
                    name.withUTF8 { right in
                        // Does `right` come before `left` when case is ignored?
                        let lowered = { (byte: UInt8) in byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
                        for (l, r) in zip(left, right) where lowered(l) != lowered(r) { return lowered(r) < lowered(l) }
                        return right.count < left.count
                    }
                }
                if swaps { return true }
            }
            previous = name
        }
        return false
    }
}

/// The bytes of one hash input, in a buffer kept between hashes so that hashing a large model
/// allocates once.
struct HashWriter {
    private var bytes: [UInt8] = []
    /// Attribute hashes already computed by this writer, by their inputs
    /// (`VersionHasher.AttributeInputs`): the same inputs always give the same hash.
    var attributeHashes: [VersionHasher.AttributeInputs: VersionHash] = [:]

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func start() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func append(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func append(_ hash: VersionHash) {
        hash.withDigestBytes { bytes.append(contentsOf: $0) }
    }

    func sha256() -> VersionHash {
        // `update(bufferPointer:)`, not the generic `hash(data:)`: no `DataProtocol` walk per hash.
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize().withUnsafeBytes { raw in
            VersionHash(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
        }
    }

    func sha512() -> ModelDigest? {
        var hasher = SHA512()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return ModelDigest(bytes: Array(hasher.finalize()))
    }
}

extension String {
    func trimmingWhitespace() -> Substring {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isSpace($0) }) else { return "" }
        let last = lastIndex(where: { !isSpace($0) })!
        return self[first...last]
    }
}

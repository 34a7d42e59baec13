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
    /// A property hash, with the unverified rules it went through, or why it has none.
    public struct PropertyHash: Sendable {
        public var hash: VersionHash?
        public var unverified: Set<UnverifiedRule>
        public var problem: String?

        init(_ hashed: HashedProperty) {
            hash = hashed.hash
            unverified = hashed.unverified.rules
            problem = hashed.problem
        }
    }

    /// `PropertyHash` as the hasher passes it around: the rules as bits, not a set to allocate.
    struct HashedProperty {
        var hash: VersionHash?
        var unverified: UnverifiedRules = []
        var problem: String?
    }

    /// `NSAttributeDescription.versionHash`. Apple: the hash "uses the name, optionality,
    /// transience, read-only flag, version hash modifier" of the property, and of an attribute
    /// also its type, whether it allows external binary storage and whether its value is
    /// preserved after deletion. Not included: the default value, the value transformer, the
    /// custom class, validation, indexing and Spotlight flags, the renaming identifier, userInfo.
    ///
    /// SHA-256 of: the property base hash (`HashWriter.propertyBaseHash`) ‖ the type's code as 4 bytes ‖
    /// `01` when external binary storage is allowed ‖ `01` when preserved after deletion.
    /// A derived attribute hashes its derivation instead (`derivedAttributeHash`); a composite
    /// one its elements (`compositeAttributeHash`).
    public static func attributeHash(_ attribute: Attribute, in model: Model) -> PropertyHash {
        var writer = HashWriter()
        return PropertyHash(attributeHash(attribute, in: model, writer: &writer))
    }

    static func attributeHash(_ attribute: Attribute, in model: Model, writer: inout HashWriter,
                              depth: Int = 0) -> HashedProperty {
        if attribute.isDerived, let expression = attribute.derivationExpression {
            return derivedAttributeHash(expression: expression, writer: &writer)
        }
        let type = attribute.attributeType ?? .undefined
        if type == .composite {
            return compositeAttributeHash(attribute, in: model, writer: &writer, depth: depth)
        }
        guard let code = typeCode(type) else {
            return HashedProperty(problem: "has attribute type '\(type.xmlName)', which Core Data does not know")
        }
        let unverified: UnverifiedRules = attribute.allowsExternalBinaryDataStorage ? [.externalBinaryStorage] : []
        // Models repeat attributes (an `id`, a `name`, a `createdAt` in many entities): the
        // hash is a function of these inputs alone, so each distinct one is hashed once.
        let inputs = AttributeInputs(name: attribute.name, flags: propertyFlags(attribute.isOptional, attribute.isTransient),
                                     versionHashModifier: attribute.versionHashModifier, typeCode: UInt32(code),
                                     external: attribute.allowsExternalBinaryDataStorage,
                                     preserved: attribute.preservesValueInHistoryOnDeletion)
        if let known = writer.attributeHashes[inputs] { return HashedProperty(hash: known, unverified: unverified) }
        let base = writer.propertyBaseHash(name: inputs.name, isOptional: attribute.isOptional,
                                           isTransient: attribute.isTransient, versionHashModifier: inputs.versionHashModifier)
        writer.start()
        writer.append(base)
        writer.append(inputs.typeCode)
        if inputs.external { writer.append(byte: 1) }
        if inputs.preserved { writer.append(byte: 1) }
        let hash = writer.sha256()
        writer.attributeHashes[inputs] = hash
        return HashedProperty(hash: hash, unverified: unverified)
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
    static func derivedAttributeHash(expression: String, writer: inout HashWriter) -> HashedProperty {
        let canonical = canonicalDerivation(expression)
        writer.start()
        writer.append(canonical.text)
        return HashedProperty(hash: writer.sha256(), unverified: canonical.verified ? [] : [.derivationExpression])
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
                                       depth: Int) -> HashedProperty {
        var leaves: [(name: String, hash: VersionHash)] = []
        var unverified: UnverifiedRules = [.compositeAttribute]
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
            return HashedProperty(unverified: unverified, problem: problem)
        }
        leaves.sort { precedes($0.name, $1.name) }
        writer.start()
        for leaf in leaves { writer.append(leaf.hash) }
        return HashedProperty(hash: writer.sha256(), unverified: unverified)
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
        return PropertyHash(relationshipHash(relationship, declaredBy: entityName, writer: &writer))
    }

    static func relationshipHash(_ relationship: Relationship, declaredBy entityName: String,
                                 writer: inout HashWriter) -> HashedProperty {
        guard let destination = relationship.destinationEntityName, !destination.isEmpty else {
            return HashedProperty(problem: "has no destination entity")
        }
        let base = writer.propertyBaseHash(name: relationship.name, isOptional: relationship.isOptional,
                                           isTransient: relationship.isTransient,
                                           versionHashModifier: relationship.versionHashModifier)
        var unverified: UnverifiedRules = []
        writer.start()
        writer.append(base)
        writer.append(destination)
        if let inverse = relationship.inverseName, !inverse.isEmpty {
            if inverse == relationship.name && (relationship.inverseEntityName ?? destination) == entityName {
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
        return HashedProperty(hash: writer.sha256(), unverified: unverified)
    }

    // MARK: Entities

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
    ///
    /// `storedHashes` are those of the properties it has that are not transient, in name order
    /// (`ModelHashing` finds them, with their inheritance).
    static func entityHash(of entity: Entity, parentHash: VersionHash?, storedHashes: [VersionHash],
                           writer: inout HashWriter) -> (hash: VersionHash, unverified: UnverifiedRules) {
        var unverified: UnverifiedRules = []
        writer.start()
        writer.append(entity.name)
        writer.append(byte: entity.isAbstract ? 1 : 0)
        if let parentHash { writer.append(parentHash) }
        for hash in storedHashes { writer.append(hash) }
        if let modifier = entity.versionHashModifier, !modifier.isEmpty {
            writer.append(modifier)
            unverified.insert(.entityVersionHashModifier)
        }
        let constraints = entity.uniquenessConstraints
        if constraints.count == 1 {
            writer.appendJoined(constraints[0].propertyNames, separator: ".")
        } else if !constraints.isEmpty {
            for constraint in constraints.map({ $0.propertyNames.joined(separator: ".") }).sorted(by: precedes) {
                writer.append(constraint)
            }
        }
        return (writer.sha256(), unverified)
    }

    // MARK: The model

    /// `NSStoreModelVersionHashesDigest`: SHA-512 of, for every entity in name order, its name ‖
    /// its hash (the first entity of each name). Nil when some entity has no hash.
    static func digest(of entities: [ModelVersionHashes.EntityHashes], writer: inout HashWriter) -> ModelDigest? {
        var names = NameBuffer()
        for entity in entities {
            guard entity.hash != nil else { return nil }
            names.append(entity.name)
        }
        writer.start()
        let order = names.positionsInNameOrder()
        names.withNames { name in
            for position in order {
                writer.append(name(position))
                writer.append(entities[position].hash!)
            }
        }
        return writer.sha512()
    }

    /// Name order as Core Data sorts: by UTF-16 code unit, case-sensitive.
    public static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let decided = lhs.utf8.withContiguousStorageIfAvailable { left in
            rhs.utf8.withContiguousStorageIfAvailable { right in nameOrder(left, right) < 0 }
        }
        return (decided ?? nil) ?? lhs.utf16.lexicographicallyPrecedes(rhs.utf16)
    }

    /// Core Data's name order of two names given as UTF-8: negative when `left` comes first,
    /// zero when they are equal.
    static func nameOrder(_ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>) -> Int {
        // UTF-8 bytes sort as code points, which sort as UTF-16 code units except where a
        // character above U+FFFF meets one from U+E000 to U+FFFF (lead bytes EE and up on both
        // sides): only then are the UTF-16 units compared.
        let common = min(left.count, right.count)
        var index = 0
        while index < common {
            let l = left[index], r = right[index]
            if l != r {
                guard l >= 0xEE && r >= 0xEE else { return l < r ? -1 : 1 }
                let leftUnits = String(decoding: left, as: UTF8.self).utf16
                let rightUnits = String(decoding: right, as: UTF8.self).utf16
                return leftUnits.lexicographicallyPrecedes(rightUnits) ? -1 : 1
            }
            index += 1
        }
        return left.count - right.count
    }

    /// True when `name` is not all ASCII, or comes before `previous` when case is ignored: a
    /// place in a name order that no ground truth has covered (`UnverifiedRule.nameOrder`).
    static func orderIsUnverified(after previous: UnsafeBufferPointer<UInt8>?, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        guard name.allSatisfy({ $0 < 0x80 }) else { return true }
        guard let previous else { return false }
        let lowered = { (byte: UInt8) in byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }
        for (l, r) in zip(previous, name) where lowered(l) != lowered(r) { return lowered(r) < lowered(l) }
        return name.count < previous.count
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

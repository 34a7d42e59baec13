import Conformance
import DataModel
import Foundation

/// The model as the reference store uses it: entities numbered, every property (inherited ones
/// included) given a slot, inverses and constraints resolved — built once when a store opens.
///
/// Slots list an entity's ancestors' properties first, so an inherited property has the same
/// slot in every entity of a hierarchy, and an inverse's slot found on a destination entity is
/// valid for all of that entity's sub-entities.
struct StoreSchema {
    struct AttributeInfo {
        var name: String
        var type: AttributeType
        var isOptional: Bool
        var isTransient: Bool
        var defaultValue: AttributeValue
        var limits: AttributeLimits
    }

    struct RelationshipInfo {
        var name: String
        var destination: Int
        /// The inverse's slot in the destination entity (and its sub-entities).
        var inverseSlot: Int?
        var isToMany: Bool
        var isOrdered: Bool
        var isOptional: Bool
        var minCount: Int
        /// 0 means unbounded.
        var maxCount: Int
        var deleteRule: DeleteRule
    }

    /// A uniqueness constraint, with the entity that declares it: conflicts are looked for among
    /// all objects of that entity's kind (coredata-semantics §3).
    struct ConstraintInfo {
        var declaringEntity: Int
        var members: [Member]
        enum Member { case attribute(Int), relationship(Int) }
    }

    struct EntityInfo {
        var name: String
        var isAbstract: Bool
        /// The entity and its ancestors.
        var kinds: Set<Int>
        var attributes: [AttributeInfo] = []
        var attributeSlots: [String: Int] = [:]
        var relationships: [RelationshipInfo] = []
        var relationshipSlots: [String: Int] = [:]
        /// Constraints declared by the entity or inherited.
        var constraints: [ConstraintInfo] = []

        /// A new object's attributes: each one's default, by slot (built once, copied per insert).
        var defaultValues: [AttributeValue] = []
        /// A new object's relationships: all empty.
        var emptyRelationships: [[ObjectID]] = []
    }

    let entities: [EntityInfo]
    let entityIndexes: [String: Int]
    /// Every constraint once, with its declaring entity.
    let constraints: [ConstraintInfo]
    /// True when some relationship has no inverse, so a deleted object may leave references the
    /// delete rules do not reach.
    let hasRelationshipsWithoutInverse: Bool
    /// `isKind[entity * entities.count + kind]`: the answer of `entity(_:isKindOf:)`, looked up
    /// for every object by counts and constraint checks.
    private let isKind: [Bool]

    init(model: Model) throws(StoreAdapterError) {
        var indexes: [String: Int] = [:]
        for (index, entity) in model.entities.enumerated() where indexes[entity.name] == nil {
            indexes[entity.name] = index
        }
        func invalid(_ message: String) -> StoreAdapterError {
            StoreAdapterError(.invalidRequest, "\(model.file): \(message)")
        }
        var infos: [EntityInfo] = []
        var allConstraints: [ConstraintInfo] = []
        var missingInverse = false
        for entity in model.entities {
            guard !model.hasInheritanceCycle(entity) else {
                throw invalid("'\(entity.name)' inherits from itself")
            }
            let lineage = model.ancestors(of: entity).reversed() + [entity]
            var info = EntityInfo(name: entity.name, isAbstract: entity.isAbstract,
                                  kinds: Set(lineage.compactMap { indexes[$0.name] }))
            for attribute in lineage.flatMap(\.attributes) where info.attributeSlots[attribute.name] == nil {
                guard let type = attribute.attributeType else {
                    throw invalid("attribute '\(entity.name).\(attribute.name)' has no attributeType")
                }
                let defaultValue: AttributeValue
                do {
                    defaultValue = try Self.defaultValue(of: attribute, type: type)
                } catch {
                    throw invalid("default value of '\(entity.name).\(attribute.name)': \(error)")
                }
                info.attributeSlots[attribute.name] = info.attributes.count
                info.attributes.append(AttributeInfo(
                    name: attribute.name, type: type, isOptional: attribute.isOptional,
                    isTransient: attribute.isTransient, defaultValue: defaultValue,
                    limits: AttributeLimits(attribute: attribute, type: type)))
            }
            for relationship in lineage.flatMap(\.relationships) where info.relationshipSlots[relationship.name] == nil {
                guard let destinationName = relationship.destinationEntityName,
                      let destination = indexes[destinationName] else {
                    throw invalid("relationship '\(entity.name).\(relationship.name)' has no known destination entity")
                }
                var inverseSlot: Int?
                if let inverse = model.inverse(of: relationship) {
                    let destinationEntity = model.entities[destination]
                    let destinationLineage = model.ancestors(of: destinationEntity).reversed() + [destinationEntity]
                    let names = Self.uniqueNames(destinationLineage.flatMap(\.relationships).map(\.name))
                    inverseSlot = names.firstIndex(of: inverse.name)
                } else {
                    missingInverse = true
                }
                info.relationshipSlots[relationship.name] = info.relationships.count
                info.relationships.append(RelationshipInfo(
                    name: relationship.name, destination: destination, inverseSlot: inverseSlot,
                    isToMany: relationship.isToMany, isOrdered: relationship.isOrdered,
                    isOptional: relationship.isOptional, minCount: relationship.minCount ?? 0,
                    maxCount: relationship.isToMany ? (relationship.maxCount ?? 0) : 1,
                    deleteRule: relationship.deletionRule))
            }
            info.defaultValues = info.attributes.map(\.defaultValue)
            info.emptyRelationships = Array(repeating: [], count: info.relationships.count)
            infos.append(info)
        }
        // Constraints, once the slots exist: each declared one, inherited by every sub-entity.
        for (index, entity) in model.entities.enumerated() where indexes[entity.name] == index {
            for constraint in entity.uniquenessConstraints {
                var members: [ConstraintInfo.Member] = []
                for name in constraint.propertyNames {
                    if let slot = infos[index].attributeSlots[name] {
                        members.append(.attribute(slot))
                    } else if let slot = infos[index].relationshipSlots[name], !infos[index].relationships[slot].isToMany {
                        members.append(.relationship(slot))
                    } else {
                        throw invalid("uniqueness constraint on '\(entity.name)' names '\(name)', "
                            + "which is neither an attribute nor a to-one relationship of it")
                    }
                }
                guard !members.isEmpty else { continue }
                allConstraints.append(ConstraintInfo(declaringEntity: index, members: members))
            }
        }
        for constraint in allConstraints {
            for index in infos.indices where infos[index].kinds.contains(constraint.declaringEntity) {
                infos[index].constraints.append(constraint)
            }
        }
        self.entities = infos
        self.entityIndexes = indexes
        self.constraints = allConstraints
        self.hasRelationshipsWithoutInverse = missingInverse
        var isKind = [Bool](repeating: false, count: infos.count * infos.count)
        for (entity, info) in infos.enumerated() {
            for kind in info.kinds { isKind[entity * infos.count + kind] = true }
        }
        self.isKind = isKind
    }

    func entityIndex(named name: String) throws(StoreAdapterError) -> Int {
        guard let index = entityIndexes[name] else {
            throw StoreAdapterError(.noSuchProperty, "the model has no entity '\(name)'")
        }
        return index
    }

    func attributeSlot(_ name: String, of entity: Int) throws(StoreAdapterError) -> Int {
        guard let slot = entities[entity].attributeSlots[name] else {
            throw StoreAdapterError(.noSuchProperty, "'\(entities[entity].name)' has no attribute '\(name)'")
        }
        return slot
    }

    func relationshipSlot(_ name: String, of entity: Int) throws(StoreAdapterError) -> Int {
        guard let slot = entities[entity].relationshipSlots[name] else {
            throw StoreAdapterError(.noSuchProperty, "'\(entities[entity].name)' has no relationship '\(name)'")
        }
        return slot
    }

    /// True when objects of `entity` are of `kind` (the entity itself or an ancestor).
    func entity(_ entity: Int, isKindOf kind: Int) -> Bool {
        isKind[entity * entities.count + kind]
    }

    private static func uniqueNames(_ names: [String]) -> [String] {
        var seen: Set<String> = []
        return names.filter { seen.insert($0).inserted }
    }

    /// The model's default for an attribute, read as its type (null when it has none).
    private static func defaultValue(of attribute: Attribute, type: AttributeType) throws -> AttributeValue {
        if type == .date, let interval = attribute.defaultDateTimeInterval.flatMap(Double.init) {
            return .date(secondsSinceReferenceDate: interval)
        }
        guard let text = attribute.defaultValueString else { return .null }
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal:
            guard let number = Double(text) else { throw AttributeValue.CoercionError(description: "'\(text)' is not a number") }
            return try (type.isInteger ? AttributeValue.integer(Int64(number)) : .double(number)).coerced(to: type)
        case .boolean:
            return .bool(["YES", "yes", "true", "1"].contains(text))
        case .string, .uri, .uuid:
            return try AttributeValue.string(text).coerced(to: type)
        default:
            return .null
        }
    }
}

/// The validation limits an attribute's model sets: numeric and date bounds, string lengths and
/// a pattern (coredata-semantics §2).
struct AttributeLimits {
    var minimumNumber: Double?
    var maximumNumber: Double?
    var minimumLength: Int?
    var maximumLength: Int?
    var earliestDate: Double?
    var latestDate: Double?
    var pattern: NSRegularExpression?

    init(attribute: Attribute, type: AttributeType) {
        switch type {
        case .integer16, .integer32, .integer64, .double, .float, .decimal:
            minimumNumber = attribute.minValueString.flatMap(Double.init)
            maximumNumber = attribute.maxValueString.flatMap(Double.init)
        case .string:
            minimumLength = attribute.minValueString.flatMap(Int.init)
            maximumLength = attribute.maxValueString.flatMap(Int.init)
            // Core Data matches the whole string (NSPredicate MATCHES), hence the anchors.
            pattern = attribute.regularExpressionString.flatMap {
                try? NSRegularExpression(pattern: "^(?:\($0))$", options: [])
            }
        case .date:
            earliestDate = attribute.minDateTimeInterval.flatMap(Double.init)
            latestDate = attribute.maxDateTimeInterval.flatMap(Double.init)
        default:
            break
        }
    }

    /// The codes of the limits `value` breaks (empty when it keeps them all).
    func violations(of value: AttributeValue) -> [Int] {
        var codes: [Int] = []
        switch value {
        case .integer(let number):
            codes += numberViolations(Double(number))
        case .double(let number):
            codes += numberViolations(number)
        case .string(let text):
            let length = text.count
            if let maximumLength, length > maximumLength { codes.append(CoreDataErrorCode.stringTooLong) }
            if let minimumLength, length < minimumLength { codes.append(CoreDataErrorCode.stringTooShort) }
            if let pattern {
                let range = NSRange(text.startIndex..., in: text)
                if pattern.firstMatch(in: text, options: [], range: range) == nil {
                    codes.append(CoreDataErrorCode.stringPatternMatching)
                }
            }
        case .date(let seconds):
            if let latestDate, seconds > latestDate { codes.append(CoreDataErrorCode.dateTooLate) }
            if let earliestDate, seconds < earliestDate { codes.append(CoreDataErrorCode.dateTooSoon) }
        case .null, .bool, .uuid, .binary:
            break
        }
        return codes
    }

    private func numberViolations(_ number: Double) -> [Int] {
        if let maximumNumber, number > maximumNumber { return [CoreDataErrorCode.numberTooLarge] }
        if let minimumNumber, number < minimumNumber { return [CoreDataErrorCode.numberTooSmall] }
        return []
    }
}

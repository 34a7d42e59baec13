import Conformance

/// The checks a save makes before anything is written (contract §4.3): Deny rules on deleted
/// objects, then the validation of every inserted or changed live object.
struct SaveValidator {
    let context: ObjectContext

    /// The failure to report: nil when everything passes, the single failure, or 1560 with all.
    func failure() -> SaveFailure? {
        SaveFailure.combining(denyFailures() + validationFailures())
    }

    /// A deleted object whose Deny relationship still holds a destination not deleted in this
    /// save (Deny is satisfied when every destination goes too; coredata-semantics §1).
    func denyFailures() -> [SaveFailure] {
        var failures: [SaveFailure] = []
        for id in context.deleted {
            guard let record = context.record(id) else { continue }
            let entity = context.schema.entities[record.entity]
            for (slot, relationship) in entity.relationships.enumerated() where relationship.deleteRule == .deny {
                if record.relationships[slot].contains(where: context.isLive) {
                    failures.append(SaveFailure(code: CoreDataErrorCode.relationshipDeniedDelete,
                                                object: record.name, key: relationship.name))
                }
            }
        }
        return failures
    }

    /// Optionality, counts and attribute limits of each inserted or changed live object.
    func validationFailures() -> [SaveFailure] {
        var failures: [SaveFailure] = []
        for id in context.changed where context.isLive(id) {
            let record = context.record(id)!
            let entity = context.schema.entities[record.entity]
            for (slot, attribute) in entity.attributes.enumerated() where !attribute.isTransient {
                let value = record.attributes[slot]
                if value == .null {
                    if !attribute.isOptional {
                        failures.append(SaveFailure(code: CoreDataErrorCode.missingMandatoryProperty,
                                                    object: record.name, key: attribute.name))
                    }
                    continue
                }
                for code in attribute.limits.violations(of: value) {
                    failures.append(SaveFailure(code: code, object: record.name, key: attribute.name, value: value))
                }
            }
            for (slot, relationship) in entity.relationships.enumerated() {
                let count = record.relationships[slot].count
                if let code = Self.countViolation(of: relationship, count: count) {
                    failures.append(SaveFailure(code: code, object: record.name, key: relationship.name))
                }
            }
        }
        return failures
    }

    /// What `validateValue(_:forKey:)` reports for `value` (contract 1.4): 1570 for a nil in a
    /// required attribute, else one failure per limit broken; the caller combines them (1560
    /// for several).
    static func failures(of value: AttributeValue, for attribute: StoreSchema.AttributeInfo, object: String) -> [SaveFailure] {
        if value == .null {
            return attribute.isOptional ? [] : [SaveFailure(code: CoreDataErrorCode.missingMandatoryProperty,
                                                            object: object, key: attribute.name)]
        }
        return attribute.limits.violations(of: value).map {
            SaveFailure(code: $0, object: object, key: attribute.name, value: value)
        }
    }

    /// What a relationship holding `count` objects breaks (coredata-semantics §2, INFERRED): a required
    /// to-one that is empty is missing (1570); counts apply to a non-empty to-many, and to an
    /// empty one only when it is required with a `minCount` (1580).
    static func countViolation(of relationship: StoreSchema.RelationshipInfo, count: Int) -> Int? {
        guard relationship.isToMany else {
            return count == 0 && !relationship.isOptional ? CoreDataErrorCode.missingMandatoryProperty : nil
        }
        if count == 0 {
            return !relationship.isOptional && relationship.minCount > 0
                ? CoreDataErrorCode.relationshipLacksMinimumCount : nil
        }
        if relationship.minCount > 0 && count < relationship.minCount {
            return CoreDataErrorCode.relationshipLacksMinimumCount
        }
        if relationship.maxCount > 0 && count > relationship.maxCount {
            return CoreDataErrorCode.relationshipExceedsMaximumCount
        }
        return nil
    }
}

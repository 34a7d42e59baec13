import Conformance
import DataModel
import Foundation
import GRDB

/// The checks a save makes before writing anything (contract §4.3, steps 1 and 2): Deny on
/// deleted objects, then validation of every inserted or changed live object. All failures
/// are collected; the caller combines them (1560 for several).
struct SaveValidation {
    /// Compiled patterns, by pattern text, for the length of one save.
    private var patterns: [String: NSRegularExpression?] = [:]

    mutating func failures(in context: inout ObjectContext, _ db: Database) throws -> [ValidationFailure] {
        var failures: [ValidationFailure] = []
        let ids = context.objects.keys.sorted()
        for id in ids {
            let state = context.objects[id]!
            guard state.isDeleted, !state.isInserted else { continue }
            failures += try denyFailures(id, in: &context, db)
        }
        for id in ids {
            let state = context.objects[id]!
            guard state.isLive, state.isInserted || state.isChanged else { continue }
            failures += try validate(id, in: &context, db)
        }
        return failures
    }

    /// 1600 for each Deny relationship of a deleted object that still holds a destination not
    /// itself deleted in this save.
    private func denyFailures(_ id: ObjectID, in context: inout ObjectContext, _ db: Database) throws -> [ValidationFailure] {
        let entity = context.schema.entities[context.objects[id]!.entity]
        var failures: [ValidationFailure] = []
        for (slot, relationship) in entity.relationshipSlots where relationship.relationship.deletionRule == .deny {
            for destination in try context.destinations(id, slot, db) where try context.isLive(destination, db) {
                failures.append(ValidationFailure(code: CoreDataErrorCode.relationshipDeniedDelete, object: id, key: relationship.name))
                break
            }
        }
        return failures
    }

    private mutating func validate(_ id: ObjectID, in context: inout ObjectContext, _ db: Database) throws -> [ValidationFailure] {
        let state = context.objects[id]!
        let entity = context.schema.entities[state.entity]
        var failures: [ValidationFailure] = []
        for (slot, attribute) in entity.attributes.enumerated() where !attribute.attribute.isTransient {
            let value = state.attributes[slot]
            for code in violations(of: value, against: attribute) {
                failures.append(ValidationFailure(code: code, object: id, key: attribute.name,
                                                  value: value == .null ? nil : value))
            }
        }
        for (slot, relationship) in entity.relationshipSlots {
            let count = try context.destinations(id, slot, db).count
            if let code = check(count: count, of: relationship.relationship) {
                failures.append(ValidationFailure(code: code, object: id, key: relationship.name))
            }
        }
        return failures
    }

    /// The codes an attribute value fails with: each limit it breaks (a string can be both too
    /// long and off its pattern). Limits apply only where the model sets them, never to null.
    mutating func violations(of value: AttributeValue, against mapping: AttributeMapping) -> [Int] {
        let attribute = mapping.attribute
        var codes: [Int] = []
        switch value {
        case .null:
            if !attribute.isOptional { codes.append(CoreDataErrorCode.missingMandatoryProperty) }
        case .integer, .double:
            let number: Double = if case .integer(let whole) = value { Double(whole) } else if case .double(let real) = value { real } else { 0 }
            if let maximum = attribute.maxValueString.flatMap(Double.init), number > maximum {
                codes.append(CoreDataErrorCode.numberTooLarge)
            } else if let minimum = attribute.minValueString.flatMap(Double.init), number < minimum {
                codes.append(CoreDataErrorCode.numberTooSmall)
            }
        case .date(let seconds):
            if let latest = attribute.maxDateTimeInterval.flatMap(Double.init), seconds > latest { codes.append(CoreDataErrorCode.dateTooLate) }
            if let earliest = attribute.minDateTimeInterval.flatMap(Double.init), seconds < earliest { codes.append(CoreDataErrorCode.dateTooSoon) }
        case .string(let text):
            // Lengths in characters, as the contract and the reference store count them (Core
            // Data itself measures an NSString, in UTF-16 units; they differ only beyond ASCII).
            let length = text.count
            if let maximum = attribute.maxValueString.flatMap(Int.init), length > maximum { codes.append(CoreDataErrorCode.stringTooLong) }
            if let minimum = attribute.minValueString.flatMap(Int.init), length < minimum { codes.append(CoreDataErrorCode.stringTooShort) }
            if let pattern = attribute.regularExpressionString, !matchesWhole(text, pattern) {
                codes.append(CoreDataErrorCode.stringPatternMatching)
            }
        case .bool, .uuid, .binary:
            break
        }
        return codes
    }

    /// Optionality and counts (coredata-semantics §2, INFERRED): an empty optional relationship always
    /// passes; an empty required to-one fails with 1570; an empty required to-many fails (1580)
    /// only when `minCount` demands a member (contract §4.3); counts apply to a non-empty
    /// to-many, `maxCount` 0 meaning unbounded.
    private func check(count: Int, of relationship: Relationship) -> Int? {
        let minimum = relationship.minCount ?? 0
        if count == 0 {
            guard !relationship.isOptional else { return nil }
            if !relationship.isToMany { return CoreDataErrorCode.missingMandatoryProperty }
            return minimum > 0 ? CoreDataErrorCode.relationshipLacksMinimumCount : nil
        }
        guard relationship.isToMany else { return nil }
        if minimum > 0, count < minimum { return CoreDataErrorCode.relationshipLacksMinimumCount }
        if let maximum = relationship.maxCount, maximum > 0, count > maximum { return CoreDataErrorCode.relationshipExceedsMaximumCount }
        return nil
    }

    /// True when the whole string matches (Core Data evaluates `SELF MATCHES pattern`, which
    /// anchors at both ends). An invalid pattern is not checked, as in the reference store.
    private mutating func matchesWhole(_ text: String, _ pattern: String) -> Bool {
        if patterns[pattern] == nil { patterns[pattern] = try? NSRegularExpression(pattern: "\\A(?:" + pattern + ")\\z") }
        guard let regex = patterns[pattern] ?? nil else { return true }
        return regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}

import DataModel
import Foundation

/// The rules a model's author silenced inline with a `momlint:disable` userInfo entry.
///
/// Xcode drops XML comments when it saves a model but keeps userInfo, and its editor can set
/// userInfo, so a suppression written there survives editing. On an entity it silences the
/// entity and all its properties; on a property, that property only.
public struct Suppressions: Sendable {
    /// The userInfo key, e.g. `momlint:disable` = `missing_inverse, no_action_delete_rule`.
    public static let userInfoKey = "momlint:disable"
    /// Silences every rule on the element.
    public static let allRules = "all"

    private let model: Model

    public init(model: Model) {
        self.model = model
    }

    /// True when the element the finding is about, or its entity, silences the finding's rule.
    public func silences(_ finding: Finding) -> Bool {
        guard let entityName = finding.entityName, let entity = model.entity(named: entityName) else { return false }
        if Self.ruleIDs(in: entity.userInfo).silences(finding.ruleID) { return true }
        guard let propertyName = finding.propertyName, let property = model.property(named: propertyName, in: entity)
        else { return false }
        return Self.ruleIDs(in: property.userInfo).silences(finding.ruleID)
    }

    /// Every rule id a `momlint:disable` entry of the model names that is not in `knownRuleIDs`
    /// (nor `all`), with where the entry is: a mistyped id silences nothing, so its author
    /// should hear of it.
    public static func unknownRuleIDs(in model: Model, knownRuleIDs: Set<String>) -> [(ruleID: String, location: SourceLocation)] {
        var unknown: [(ruleID: String, location: SourceLocation)] = []
        // Most userInfo holds other keys: the element's location is copied only for the rest.
        func check(_ userInfo: UserInfo, elementLocation: @autoclosure () -> SourceLocation) {
            guard let entry = userInfo.entries.last(where: { $0.key == userInfoKey }) else { return }
            for id in ruleIDs(in: userInfo).sorted() where id != allRules && !knownRuleIDs.contains(id) {
                unknown.append((id, entry.location ?? elementLocation()))
            }
        }
        // Nearly every entity, attribute and relationship has no userInfo: they are picked from
        // the model's trait tables, so the others are never visited (on a large model, visiting
        // each one's heap block cost more than the rest of the check, after the lint, with every
        // other core idle; docs/benchmarks.md, "The mistyped-id check").
        let attributes = model.attributePositions { $0.hasUserInfo }
        let relationships = model.relationshipPositions(atPositions: { model.traits(ofRelationshipAt: $0).hasUserInfo })
        let entityIndexes = Set(model.entityIndexes { $0.hasUserInfo || $0.hasFetchedProperties })
            .union(attributes.map(\.entityIndex)).union(relationships.map(\.entityIndex)).sorted()
        var nextAttribute = 0, nextRelationship = 0
        for entityIndex in entityIndexes {
            let entity = model.entities[entityIndex]
            check(entity.userInfo, elementLocation: entity.location)
            while nextAttribute < attributes.count, attributes[nextAttribute].entityIndex == entityIndex {
                let attribute = model.attribute(at: attributes[nextAttribute])
                check(attribute.userInfo, elementLocation: attribute.location)
                nextAttribute += 1
            }
            while nextRelationship < relationships.count, relationships[nextRelationship].entityIndex == entityIndex {
                let relationship = model.relationship(at: relationships[nextRelationship])
                check(relationship.userInfo, elementLocation: relationship.location)
                nextRelationship += 1
            }
            for fetched in entity.fetchedProperties { check(fetched.userInfo, elementLocation: fetched.location) }
        }
        return unknown
    }

    /// The rule ids listed under `momlint:disable`: comma-separated, spaces ignored.
    public static func ruleIDs(in userInfo: UserInfo) -> Set<String> {
        guard let value = userInfo[userInfoKey] else { return [] }
        return Set(value.split(separator: ",").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty })
    }
}

private extension Set<String> {
    func silences(_ ruleID: String) -> Bool {
        contains(ruleID) || contains(Suppressions.allRules)
    }
}

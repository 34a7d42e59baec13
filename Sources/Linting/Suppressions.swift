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
        silences(ruleID: finding.ruleID, entityName: finding.entityName, propertyName: finding.propertyName)
    }

    public func silences(ruleID: String, entityName: String?, propertyName: String?) -> Bool {
        guard let entityName, let entity = model.entity(named: entityName) else { return false }
        if Self.ruleIDs(in: entity.userInfo).silences(ruleID) { return true }
        guard let propertyName, let property = model.property(named: propertyName, in: entity) else { return false }
        return Self.ruleIDs(in: property.userInfo).silences(ruleID)
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

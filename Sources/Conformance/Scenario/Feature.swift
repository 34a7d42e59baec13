/// A capability a scenario needs. The list is closed: scenario files may name only these,
/// and an adapter declares the ones it does not support so that the runner skips (rather
/// than fails) the scenarios that need them.
public enum Feature: String, CaseIterable, Codable, Hashable, Sendable, Comparable {
    /// Nullify, Cascade and Deny delete rules. Every store is expected to support them;
    /// listed so that scenario files say what they exercise.
    case deleteRules = "delete-rules"
    /// The No Action delete rule, which leaves dangling references behind.
    case noAction = "no-action"
    /// Ordered to-many relationships (`ordered="YES"`).
    case ordered
    /// Two to-many relationships that are each other's inverse.
    case manyToMany = "many-to-many"
    /// Sub-entities, inherited properties, delete rules and constraints.
    case inheritance
    /// Validation at save: optionality, min/max counts, attribute limits and patterns.
    case validation
    /// Uniqueness constraints (`<uniquenessConstraints>`), single and composite.
    case constraints
    /// Saving with a merge policy other than `error`.
    case mergePolicy = "merge-policy"
    /// Date-valued attributes.
    case dates
    /// Closing the store and opening it again on the same data.
    case reopen
    /// Save failures that carry the value that failed validation and the objects of a
    /// uniqueness conflict (contract 1.1), for stores whose errors say no more than code,
    /// object and key.
    case errorDetails = "error-details"
    /// The value that failed validation (`value:` of a failure) — half of `error-details`
    /// (contract 1.4): a store that names the objects of a conflict but not the value, or the
    /// other way round, declares only the half it lacks.
    case errorValues = "error-values"
    /// The objects of a conflict (`objects:` of a 133021 or 133020) — the other half of
    /// `error-details` (contract 1.4).
    case conflictObjects = "conflict-objects"
    /// Reading the saved state apart from pending changes (`expect` with `saved: true`), as a
    /// second context on the same coordinator or a fetch with `includesPendingChanges = false`
    /// sees it (contract 1.2).
    case savedState = "saved-state"
    /// Opening saved data with another model version, with lightweight migration or none
    /// (contract 1.3).
    case migration
    /// More than one context on the store (`contexts:` entries without a parent): each reads
    /// and saves on its own, optimistic locking fails a stale save with 133020, and the merge
    /// policies resolve it property by property (contract 1.4).
    case contexts
    /// Child contexts (`contexts:` entries with a parent), whose saves go to the parent
    /// context, not to the store (contract 1.4).
    case childContexts = "child-contexts"
    /// `refresh` and `refreshAll`: reloading objects from the parent, with or without their
    /// pending changes (contract 1.4).
    case refresh
    /// `validate`: `validateValue(_:forKey:)` without saving (contract 1.4).
    case validate
    /// `hasChanges`, the inserted / updated / deleted sets and `isDeleted` (contract 1.4).
    case changeTracking = "change-tracking"
    /// Fetch requests: predicates, sort descriptors, `includesPendingChanges`, limit and
    /// offset (contract 1.4).
    case fetchRequests = "fetch-requests"
    /// Store options on reopen: `NSReadOnlyPersistentStoreOption` (contract 1.4).
    case storeOptions = "store-options"

    /// The features a contract minor version added, so that an adapter written against an
    /// older minor version — a shim whose handshake names no newer one — skips them instead
    /// of failing them.
    public static func introduced(after minorVersion: Int) -> Set<Feature> {
        minorVersion < 4 ? [.contexts, .childContexts, .refresh, .validate, .changeTracking, .fetchRequests, .storeOptions] : []
    }

    /// `features` with `error-details` standing for both of its halves, `error-values` and
    /// `conflict-objects`: a scenario that lists it needs both, and an adapter that declares it
    /// unsupported lacks both. The runner compares features after this.
    public static func expanded(_ features: Set<Feature>) -> Set<Feature> {
        features.contains(.errorDetails) ? features.union([.errorValues, .conflictObjects]) : features
    }

    public static func < (lhs: Feature, rhs: Feature) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Labels a scenario carries about its standing, from a closed list.
public enum ScenarioTag: String, CaseIterable, Codable, Hashable, Sendable {
    /// The behaviour is inferred from observation, not documented by Apple; the scenario
    /// names the open question of docs/coredata-semantics.md(s) where there is one.
    case inferred
}

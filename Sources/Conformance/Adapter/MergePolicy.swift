/// How a save resolves uniqueness-constraint conflicts: Core Data's `NSMergePolicyType`.
///
/// Raw values are the names scenario files and the JSON protocol use; they follow the Swift
/// spellings of `NSMergePolicyType` (https://developer.apple.com/documentation/coredata/nsmergepolicytype).
public enum MergePolicy: String, CaseIterable, Codable, Hashable, Sendable {
    /// `NSErrorMergePolicy`, the default: a conflict fails the save with 133021.
    case error
    /// `NSMergeByPropertyStoreTrumpMergePolicy`: external (stored) values win.
    case mergeByPropertyStoreTrump
    /// `NSMergeByPropertyObjectTrumpMergePolicy`: in-memory values win.
    case mergeByPropertyObjectTrump
    /// `NSOverwriteMergePolicy`: the in-memory object replaces the stored one.
    case overwrite
    /// `NSRollbackMergePolicy`: the stored object stays; in-memory changes are discarded.
    case rollback
}

extension MergePolicy {
    /// One property of an object in optimistic-locking conflict, as the policy resolves it
    /// (Apple, `NSMergePolicy`; coredata-semantics §9): ObjectTrump keeps the context's value
    /// where the context changed it (`mine` differs from `read`, the value it read) and takes the
    /// store's elsewhere; StoreTrump takes the store's value where the store changed it and keeps
    /// the context's elsewhere; Overwrite writes every value the context holds; Rollback keeps
    /// every value the store holds. One definition, so the stores cannot disagree.
    public func resolved<Value: Equatable>(mine: Value, read: Value, stored: Value) -> Value {
        switch self {
        case .mergeByPropertyObjectTrump: mine != read ? mine : stored
        case .mergeByPropertyStoreTrump: stored != read ? stored : mine
        case .overwrite: mine
        case .rollback, .error: stored
        }
    }
}

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

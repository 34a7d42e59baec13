/// One operation the runner asks a store to perform. Objects are named by the scenario
/// (`object`, `destination`): the store keeps the mapping from names to its own identities
/// (contract §3). Each case maps to one line of the JSON protocol (contract §7).
public enum StoreRequest: Hashable, Sendable, Codable {
    // MARK: Changes (pending until a save)

    /// Inserts a new object of `entity` named `object`, with the given attribute values
    /// (already coerced to the model's types); other attributes take their model defaults.
    case insert(entity: String, object: String, values: [String: AttributeValue])
    /// Sets one attribute of a live object.
    case set(object: String, attribute: String, value: AttributeValue)
    /// Adds `destination` to a relationship: replaces a to-one, appends to a to-many (at the
    /// end of an ordered one). The store maintains the inverse, as Core Data does.
    case link(object: String, relationship: String, destination: String)
    /// Removes `destination` from a relationship (a to-one becomes nil). The store maintains
    /// the inverse.
    case unlink(object: String, relationship: String, destination: String)
    /// Marks a live object deleted; delete rules propagate before the next request (contract §4).
    case delete(object: String)
    /// Validates and commits every pending change atomically, resolving uniqueness conflicts
    /// with `policy`. Answered by `.saved` or `.saveFailed`.
    case save(policy: MergePolicy)
    /// Discards every pending change, like `NSManagedObjectContext.reset()` / `rollback()`.
    case reset
    /// Discards pending changes, closes the store and opens it again on the same data.
    case reopen

    // MARK: Queries (see the current state: saved data plus pending changes)

    /// Whether `object` is live: inserted or saved, and not deleted. Answered by `.exists`.
    case exists(object: String)
    /// An attribute of a live object. Answered by `.value`.
    case value(object: String, attribute: String)
    /// The names of a relationship's destinations (in order for an ordered one; zero or one
    /// for a to-one). Answered by `.objects`.
    case related(object: String, relationship: String)
    /// How many live objects of `entity` and its sub-entities there are. Answered by `.count`.
    case count(entity: String)
}

/// A store's answer to one `StoreRequest`.
public enum StoreResponse: Hashable, Sendable, Codable {
    /// A change, reset or reopen was done.
    case done
    /// The save committed.
    case saved
    /// The save failed and nothing was committed; pending changes remain.
    case saveFailed(SaveFailure)
    case exists(Bool)
    case value(AttributeValue)
    case objects([String])
    case count(Int)
    /// Opening the store's data with another model version failed (contract 1.3, feature
    /// `migration`); the data are as they were and the store stays open with its old model.
    case openFailed(OpenFailure)
}

/// What a store does with data saved under one model version when it is opened with another
/// (contract 1.3, feature `migration`), like the `NSMigratePersistentStoresAutomaticallyOption`
/// and `NSInferMappingModelAutomaticallyOption` options of `addPersistentStore`.
public enum MigrationMode: String, Hashable, Sendable, Codable, CaseIterable {
    /// No migration: a store whose version hashes differ from the model's fails with 134100.
    case none
    /// Lightweight migration with an inferred mapping, in place.
    case lightweight
}

/// Why opening a store with another model version failed: a Core Data error code
/// (134100, 134110 or 134140, `CoreDataErrorCode`) and a message for people.
public struct OpenFailure: Hashable, Sendable, Codable, CustomStringConvertible {
    public var code: Int
    public var message: String

    public init(code: Int, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String {
        "\(code) (\(CoreDataErrorCode.name(of: code) ?? "unknown code")): \(message)"
    }
}

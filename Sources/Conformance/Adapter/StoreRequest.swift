/// One operation the runner asks a store to perform. Objects are named by the scenario
/// (`object`, `destination`): the store keeps the mapping from names to its own identities
/// (contract §3). Each case maps to one line of the JSON protocol (contract §7).
public indirect enum StoreRequest: Hashable, Sendable, Codable {
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
    /// Validates and commits every pending change atomically, resolving optimistic-locking and
    /// uniqueness conflicts with `policy`. Answered by `.saved` or `.saveFailed`. In a child
    /// context the changes go to the parent context, not to the store (contract 1.4, §4.10).
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

    // MARK: Contexts, refreshing, validating, fetching (contract 1.4)

    /// Creates the context `name`: on the store beside the others (`parent` nil, like a second
    /// `NSManagedObjectContext` on the same coordinator), or a child of the context `parent`
    /// (whose saves go to that context). The runner sends these first, in the scenario's order;
    /// the default context, `main`, always exists. Answered by `.done`. Feature `contexts` or
    /// `child-contexts`.
    case addContext(name: String, parent: String?)
    /// `request` performed in the context `context` instead of the default one.
    case inContext(context: String, request: StoreRequest)
    /// `refresh(_:mergeChanges:)`: reloads one object from its parent (the store, or the parent
    /// context); with `mergeChanges` its pending changes are applied again over the fresh
    /// values, without them they are lost. Transient values go back to their defaults unless
    /// they are pending changes kept by the merge. Answered by `.done`. Feature `refresh`.
    case refresh(object: String, mergeChanges: Bool)
    /// `refreshAllObjects()`: every registered object refreshed, merging its pending changes.
    case refreshAll
    /// `validateValue(_:forKey:)`: checks `value` against the attribute's rules without setting
    /// it. Answered by `.valid` or `.invalid`. Feature `validate`.
    case validate(object: String, attribute: String, value: AttributeValue)
    /// The context's `hasChanges`, `insertedObjects`, `updatedObjects`, `deletedObjects`.
    /// Answered by `.changes`. Feature `change-tracking`.
    case changes
    /// `isDeleted` of an object (false for a name the context does not hold). Answered by
    /// `.isDeleted`. Feature `change-tracking`.
    case isDeleted(object: String)
    /// Executes a fetch request. Answered by `.objects`, in the sort order when the request
    /// sorts. Feature `fetch-requests`.
    case fetch(FetchRequest)
    /// Discards pending changes, closes the store and opens it again with these options
    /// (`NSReadOnlyPersistentStoreOption`). Answered by `.done`. Feature `store-options`.
    case reopenWithOptions(StoreOptions)
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
    /// `validate`: the value passes the attribute's rules (contract 1.4).
    case valid
    /// `validate`: the value fails; the failure is what a save would report for it (a single
    /// code, or 1560 with one detail per broken rule).
    case invalid(SaveFailure)
    /// `changes`: the context's change tracking (contract 1.4).
    case changes(ContextChanges)
    /// `isDeleted`.
    case isDeleted(Bool)
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

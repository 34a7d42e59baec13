import DataModel

/// A store under test, as the conformance runner sees it: something that opens a fresh store
/// for a model. Implement this (and `ConformanceStore`) to run the suite against your store;
/// `docs/adapter-contract.md` is the full contract.
///
/// The adapter itself is a description (a name and what it does not support) and a factory,
/// so it can be shared across threads; each scenario gets its own store.
public protocol StoreAdapter: Sendable {
    /// The name reports and `--adapter` use (`reference`, `sqlite`, `exec:…`).
    var name: String { get }
    /// Features the adapter knowingly does not support: scenarios needing any of them are
    /// reported as skipped, not failed. Empty by default.
    var unsupportedFeatures: Set<Feature> { get }
    /// Opens a fresh, empty store for `setup.model` (contract §2). Throwing fails the scenario.
    func openStore(_ setup: StoreSetup) throws -> any ConformanceStore
}

extension StoreAdapter {
    public var unsupportedFeatures: Set<Feature> { [] }
}

/// One open store, used by one scenario on one thread, then closed.
public protocol ConformanceStore: AnyObject {
    /// Performs one request. A save that fails validation or a constraint is an *answer*
    /// (`.saveFailed`), not a thrown error; throw only when the store cannot do what was asked
    /// (unknown object, unsupported operation, I/O failure), which fails the scenario.
    func perform(_ request: StoreRequest) throws -> StoreResponse
    /// Answers a query (`exists`, `value`, `related`, `count`) from the saved state alone, as
    /// if the pending changes were not there, and leaves them pending (contract 1.2, feature
    /// `saved-state`). Throws `unsupported` by default: an adapter whose stores do not override
    /// it lists `saved-state` in `unsupportedFeatures`.
    func performOnSavedState(_ query: StoreRequest) throws -> StoreResponse
    /// Discards pending changes, closes the store and opens its saved data with `model`,
    /// another version of the scenario's model (at `modelPath`, the `.xcdatamodel` version
    /// folder), migrating as `migration` says (contract 1.3, feature `migration`). Answers
    /// `.done`, or `.openFailed` with Core Data's code when the data cannot be opened that way;
    /// the data are then as they were and the store stays open with the model it had. Throws
    /// `unsupported` by default: an adapter whose stores do not override it lists `migration`
    /// in `unsupportedFeatures`.
    func reopen(with model: Model, modelPath: String, migration: MigrationMode) throws -> StoreResponse
    /// Releases the store's resources (files, processes). Called once, last. Does nothing by default.
    func close()
}

extension ConformanceStore {
    public func close() {}

    public func reopen(with model: Model, modelPath: String, migration: MigrationMode) throws -> StoreResponse {
        throw StoreAdapterError(.unsupported, "this store does not open its data with another model version; "
            + "its adapter should list feature 'migration' as unsupported")
    }

    public func performOnSavedState(_ query: StoreRequest) throws -> StoreResponse {
        throw StoreAdapterError(.unsupported, "this store does not read the saved state apart from pending changes; "
            + "its adapter should list feature 'saved-state' as unsupported")
    }
}

/// What a store is opened for.
public struct StoreSetup: Sendable {
    /// The scenario's model, loaded by the real parser.
    public var model: Model
    /// The path of the model bundle (`.xcdatamodeld`) the scenario names, absolute.
    public var modelPath: String
    /// The scenario's id, for naming temporary files and logs.
    public var scenarioID: String
    /// How long the scenario said it may take (`timeLimit:`), when it said: adapters with
    /// timeouts of their own (the process adapter's per-request limit) allow that much.
    public var timeLimit: Duration?

    public init(model: Model, modelPath: String, scenarioID: String, timeLimit: Duration? = nil) {
        self.model = model
        self.modelPath = modelPath
        self.scenarioID = scenarioID
        self.timeLimit = timeLimit
    }
}

/// An error a store throws when it cannot perform a request (contract §6).
public struct StoreAdapterError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable, Codable {
        /// The request names an object the store does not hold (never inserted, deleted, or
        /// discarded by a reset or a merge).
        case noSuchObject
        /// The request names an entity or property the model does not have, or the wrong kind
        /// (an attribute where a relationship is expected).
        case noSuchProperty
        /// The store does not implement this operation or feature.
        case unsupported
        /// Anything else: the request cannot be performed (e.g. inserting an abstract entity).
        case invalidRequest
        /// The store itself failed (I/O, a crashed process, a protocol error).
        case storeFailure
        /// The store works, and declined the request by a rule of its own: a SQL foreign key
        /// declared RESTRICT refusing a delete, a trigger, a check constraint (contract 1.1).
        /// Reported as the store disagreeing with the scenario, not as a crash.
        case refused
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    /// How the runner words this error in a failure: a refusal reads as a disagreement, any
    /// other kind as a failure to do what was asked.
    public var verdictText: String {
        switch kind {
        case .refused: "the store refused the request: \(message)"
        case .storeFailure: "the store failed: \(message)"
        default: "the store threw \(kind.rawValue): \(message)"
        }
    }
}

/// An adapter made from a closure: the shortest way to run the suite against a store type,
/// e.g. `ClosureStoreAdapter(name: "mine") { try MyStore(model: $0.model) }`.
public struct ClosureStoreAdapter: StoreAdapter {
    public let name: String
    public let unsupportedFeatures: Set<Feature>
    private let open: @Sendable (StoreSetup) throws -> any ConformanceStore

    public init(name: String, unsupportedFeatures: Set<Feature> = [],
                open: @escaping @Sendable (StoreSetup) throws -> any ConformanceStore) {
        self.name = name
        self.unsupportedFeatures = unsupportedFeatures
        self.open = open
    }

    public func openStore(_ setup: StoreSetup) throws -> any ConformanceStore {
        try open(setup)
    }
}

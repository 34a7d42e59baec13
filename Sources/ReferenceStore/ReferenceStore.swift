import Conformance
import DataModel
import Foundation

/// The in-memory oracle: Core Data's delete propagation, validation at save, uniqueness
/// constraints and merge policies as `docs/adapter-contract.md` defines them.
///
/// Every scenario of the suite passes on it; a second store is conformant when it matches it.
/// One store serves one scenario on one thread (contract §1).
public final class ReferenceStore: ConformanceStore {
    /// The model the saved data follow: the one the store was opened with, or the version of
    /// the last successful `reopen(with:)`.
    var model: Model
    /// The store's rows: the objects as of the last save that reached the store, transient
    /// attributes at their defaults (they are never stored).
    var persistent = ObjectGraph()
    /// With several contexts: each row's version (Core Data's `Z_OPT`), raised by every save
    /// that writes the row; optimistic locking compares it with the version a context read.
    var versions: [ObjectID: Int] = [:]
    /// Opened with `NSReadOnlyPersistentStoreOption`: a save with changes fails with 513.
    var isReadOnly = false
    /// The default context, `main`, on the store.
    private let main: ContextBox
    /// The contexts a scenario added (contract 1.4), by name.
    private var others: [String: ContextBox] = [:]
    /// Their names in the order they were added: a reset of the whole store goes parents first.
    private var otherNames: [String] = []
    /// Counts the requests that may have changed what some context sees of its parent (every
    /// request but a query); a context synchronized since the last of them is up to date.
    private var generation = 0
    /// Scenario names to object IDs, kept across saves, resets and reopens (contract §3).
    private var objectIDs: [String: ObjectID] = [:]
    private var nextID: ObjectID = 0
    #if DEBUG
    /// Every request so far, printed when an invariant check fails so the case can be replayed.
    private var trace: [StoreRequest] = []
    /// Set once a refresh or a second context may leave two objects disagreeing about a
    /// relationship between them, as Core Data's objects may (a refreshed object forgets its side
    /// of a pending relink; a stale object keeps an old one): the graph checks stop then.
    private var relationshipsMayDisagree = false
    #endif

    /// One context and where its saves go: the store (`parent` nil) or another context.
    final class ContextBox {
        var context: ObjectContext
        let parent: ContextBox?
        /// The store's `generation` when the context was last synchronized with its parent.
        var synchronizedAt: Int?
        init(_ context: ObjectContext, parent: ContextBox?) {
            self.context = context
            self.parent = parent
        }
    }

    /// The default context.
    var context: ObjectContext {
        get { main.context }
        _modify { yield &main.context }
        set { main.context = newValue }
    }

    var hasSeveralContexts: Bool { !others.isEmpty }

    /// Opens a fresh, empty store for `model`. Throws when the model cannot describe a store
    /// (an unknown destination entity, an inheritance cycle, a constraint on a to-many).
    public init(model: Model) throws(StoreAdapterError) {
        self.model = model
        main = ContextBox(ObjectContext(schema: try StoreSchema(model: model)), parent: nil)
    }

    /// Opens a fresh store for a scenario: `ConformanceSuite.check(scenario, adapter: ReferenceStore.init)`.
    public convenience init(_ setup: StoreSetup) throws(StoreAdapterError) {
        try self.init(model: setup.model)
    }

    public func perform(_ request: StoreRequest) throws -> StoreResponse {
        #if DEBUG
        trace.append(request)
        defer { if !relationshipsMayDisagree && others.isEmpty { checkInvariants(after: request) } }
        switch request {
        case .refresh, .refreshAll, .addContext, .inContext: relationshipsMayDisagree = true
        default: break
        }
        #endif
        switch request {
        case .addContext(let name, let parentName):
            return try addContext(name, parent: parentName)
        case .inContext(let name, let inner):
            if case .inContext = inner { throw StoreAdapterError(.invalidRequest, "'inContext' cannot be nested") }
            if case .addContext = inner { throw StoreAdapterError(.invalidRequest, "'addContext' is sent on its own") }
            guard name != ContextDeclaration.defaultName else { return try perform(inner, in: main) }
            guard let box = others[name] else { throw StoreAdapterError(.invalidRequest, "no context named '\(name)'") }
            return try perform(inner, in: box)
        default:
            return try perform(request, in: main)
        }
    }

    /// Adds a context on the store or a child of another (contract 1.4, §4.10). From the first
    /// one on, every object the default context holds counts as read at its row's version.
    private func addContext(_ name: String, parent parentName: String?) throws(StoreAdapterError) -> StoreResponse {
        guard name != ContextDeclaration.defaultName, others[name] == nil else {
            throw StoreAdapterError(.invalidRequest, "a context named '\(name)' already exists")
        }
        var parent: ContextBox?
        if let parentName {
            guard let box = parentName == ContextDeclaration.defaultName ? main : others[parentName] else {
                throw StoreAdapterError(.invalidRequest, "no context named '\(parentName)' to be the parent of '\(name)'")
            }
            parent = box
        }
        if others.isEmpty {
            for id in persistent.ids { versions[id] = 1 }
            for id in main.context.graph.ids {
                main.context.registered.insert(id)
                if persistent.contains(id) { main.context.readVersions[id] = 1 }
            }
        }
        let box = ContextBox(ObjectContext(schema: main.context.schema), parent: parent)
        others[name] = box
        otherNames.append(name)
        generation += 1  // the default context's objects now count as read
        synchronize(box)
        return .done
    }

    /// What `box`'s parent holds now: the store's rows, or the parent context's live objects
    /// with their pending values.
    func parentView(of box: ContextBox) -> ObjectGraph {
        guard let parent = box.parent else { return persistent }
        var view = parent.context.graph
        for id in parent.context.deleted { view.remove(id) }
        return view
    }

    /// Brings the objects `box` has not read or changed up to date with its parent (what
    /// faulting them in now would read), and drops those its parent no longer has.
    ///
    /// Nothing to do when no request but queries ran since `box` was last synchronized: its
    /// ancestors were synchronized just before it, and a query changes no context's objects,
    /// no row and no version (it may register objects, which only takes them out of the sync).
    private func synchronize(_ box: ContextBox) {
        guard box.synchronizedAt != generation else { return }
        box.synchronizedAt = generation
        if let parent = box.parent { synchronize(parent) }
        let view = parentView(of: box)
        let onStore = box.parent == nil
        let context = box.context
        var updated = context
        for id in view.ids where !context.registered.contains(id) {
            let record = view[id]!
            if context.graph[id] != record { updated.graph.replace(id, with: record) }
            if context.saved[id] != record { updated.saved.replace(id, with: record) }
            if onStore { updated.readVersions[id] = versions[id] }
        }
        for id in context.graph.ids where !context.registered.contains(id) && !view.contains(id) {
            updated.graph.remove(id)
            updated.saved.remove(id)
            updated.readVersions[id] = nil
        }
        box.context = updated
    }

    private func perform(_ request: StoreRequest, in box: ContextBox) throws -> StoreResponse {
        let several = !others.isEmpty
        if several { synchronize(box) }
        defer { if !request.isQuery { generation += 1 } }
        let response = try handle(request, in: box)
        if several {
            // What the context changed, it now holds as its own.
            let (inserted, changed, deleted) = (box.context.inserted, box.context.changed, box.context.deleted)
            box.context.registered.formUnion(inserted, changed, deleted)
        }
        return response
    }

    /// Marks an object the context reads as registered: from now on it keeps the values read.
    private func register(_ id: ObjectID, in box: ContextBox) {
        if !others.isEmpty { box.context.registered.insert(id) }
    }

    #if DEBUG
    /// Up to this many objects, every request is followed by a check of the whole graph. Beyond
    /// it, each request checks only what it touched, and saves, resets and reopens check the
    /// whole graph: a whole-graph check after each of the 2,000 requests that build a folder of
    /// 1,000 files made that scenario quadratic (16 s in a debug build, over its time limit).
    static let wholeGraphCheckLimit = 100

    /// Checks the whole graph while it is small, and otherwise what the request touched (the
    /// whole graph again after each save and reset); on failure, stops with the requests
    /// that lead there, one JSON line each, to replay on a fresh store.
    private func checkInvariants(after request: StoreRequest) {
        var violation: String?
        switch request {
        case _ where context.graph.count <= Self.wholeGraphCheckLimit, .save, .reset, .reopen:
            violation = context.invariantViolation()
        case .insert(_, let name, _), .set(let name, _, _), .delete(let name):
            violation = objectIDs[name].flatMap(context.invariantViolation(of:))
        case .link(let name, let relationship, let destination), .unlink(let name, let relationship, let destination):
            // The pair from both sides; a to-one inverse's previous partner is checked at the next save.
            guard let id = objectIDs[name], let member = objectIDs[destination], let record = context.record(id),
                  let slot = try? context.schema.relationshipSlot(relationship, of: record.entity) else { break }
            violation = context.invariantViolation(of: id, slot: slot, member: member)
            if violation == nil, let inverseSlot = context.schema.entities[record.entity].relationships[slot].inverseSlot {
                violation = context.invariantViolation(of: member, slot: inverseSlot, member: id)
            }
        default:
            break
        }
        guard let violation else { return }
        let replay = trace.map { request in
            (try? JSONEncoder().encode(request)).map { String(decoding: $0, as: UTF8.self) } ?? "\(request)"
        }
        preconditionFailure("reference store invariant broken: \(violation)\nrequests so far:\n"
            + replay.joined(separator: "\n"))
    }
    #endif

    private func handle(_ request: StoreRequest, in box: ContextBox) throws(StoreAdapterError) -> StoreResponse {
        switch request {
        case .insert(let entityName, let name, let values):
            guard objectIDs[name] == nil else {
                throw StoreAdapterError(.invalidRequest, "an object named '\(name)' was already inserted")
            }
            let entity = try box.context.schema.entityIndex(named: entityName)
            var slots: [(slot: Int, value: AttributeValue)] = []
            for (attribute, value) in values {
                let slot = try box.context.schema.attributeSlot(attribute, of: entity)
                slots.append((slot, try coerce(value, for: entity, slot: slot)))
            }
            try box.context.insert(entity: entity, name: name, as: nextID, values: slots)
            objectIDs[name] = nextID
            nextID += 1
            return .done
        case .set(let name, let attribute, let value):
            let id = try liveObject(name, in: box)
            let entity = box.context.record(id)!.entity
            let slot = try box.context.schema.attributeSlot(attribute, of: entity)
            box.context.set(id, slot: slot, to: try coerce(value, for: entity, slot: slot))
            return .done
        case .link(let name, let relationship, let destinationName):
            let id = try liveObject(name, in: box)
            let slot = try box.context.schema.relationshipSlot(relationship, of: box.context.record(id)!.entity)
            try box.context.link(id, slot: slot, to: try liveObject(destinationName, in: box))
            return .done
        case .unlink(let name, let relationship, let destinationName):
            let id = try liveObject(name, in: box)
            let slot = try box.context.schema.relationshipSlot(relationship, of: box.context.record(id)!.entity)
            guard let destination = objectIDs[destinationName] else { throw noSuchObject(destinationName) }
            try box.context.unlink(id, slot: slot, from: destination)
            return .done
        case .delete(let name):
            box.context.delete(try liveObject(name, in: box))
            return .done
        case .save(let policy):
            if let failure = save(box, policy: policy) { return .saveFailed(failure) }
            return .saved
        case .reset:
            if others.isEmpty {
                box.context.reset(to: persistent)
            } else {
                box.context.reset(to: ObjectGraph())
                generation += 1
                synchronize(box)
            }
            return .done
        case .reopen:
            resetAllContexts(readOnly: false)
            return .done
        case .reopenWithOptions(let options):
            resetAllContexts(readOnly: options.readOnly)
            return .done
        case .exists(let name):
            guard let id = objectIDs[name], box.context.isLive(id) else { return .exists(false) }
            register(id, in: box)
            return .exists(true)
        case .value(let name, let attribute):
            let id = try liveObject(name, in: box)
            let slot = try box.context.schema.attributeSlot(attribute, of: box.context.record(id)!.entity)
            return .value(box.context.record(id)!.attributes[slot])
        case .related(let name, let relationship):
            let id = try liveObject(name, in: box)
            let record = box.context.record(id)!
            let slot = try box.context.schema.relationshipSlot(relationship, of: record.entity)
            return .objects(record.relationships[slot].compactMap { box.context.record($0)?.name ?? persistent[$0]?.name })
        case .count(let entityName):
            return .count(box.context.liveCount(ofKind: try box.context.schema.entityIndex(named: entityName)))
        case .refresh(let name, let mergeChanges):
            // A deleted object may be refreshed too (it stays deleted unless its changes are dropped).
            guard let id = objectIDs[name], box.context.graph.contains(id) else { throw noSuchObject(name) }
            refresh(id, mergingChanges: mergeChanges, in: box)
            return .done
        case .refreshAll:
            let ids = others.isEmpty ? Array(box.context.graph.ids) : Array(box.context.registered)
            for id in ids { refresh(id, mergingChanges: true, in: box) }
            return .done
        case .validate(let name, let attribute, let value):
            let id = try liveObject(name, in: box)
            let record = box.context.record(id)!
            let slot = try box.context.schema.attributeSlot(attribute, of: record.entity)
            let failure = SaveValidator.failures(of: try coerce(value, for: record.entity, slot: slot),
                                                 for: box.context.schema.entities[record.entity].attributes[slot],
                                                 object: record.name)
            return SaveFailure.combining(failure).map(StoreResponse.invalid) ?? .valid
        case .changes:
            return .changes(box.context.changes)
        case .isDeleted(let name):
            guard let id = objectIDs[name], box.context.graph.contains(id) else { return .isDeleted(false) }
            return .isDeleted(box.context.deleted.contains(id))
        case .fetch(let fetch):
            let kind = try box.context.schema.entityIndex(named: fetch.entity)
            let source: ObjectGraph
            var live: (ObjectID) -> Bool = { _ in true }
            if fetch.includesPendingChanges {
                source = box.context.graph
                live = { [context = box.context] in context.isLive($0) }
            } else {
                source = parentView(of: box)
            }
            let candidates = source.ids.filter { live($0) && box.context.schema.entity(source[$0]!.entity, isKindOf: kind) }
            let found = try fetch.execute(over: candidates) { id, path throws(StoreAdapterError) in
                try box.context.schema.value(at: path, of: id, in: source)
            }
            for id in found where box.context.graph.contains(id) { register(id, in: box) }
            return .objects(found.map { source[$0]!.name })
        case .addContext, .inContext:
            throw StoreAdapterError(.invalidRequest, "contexts are added and chosen by the store, not inside a context")
        }
    }

    /// Saves `box`'s context: to its parent context for a child, else to the store, with the
    /// optimistic-locking check when there are several contexts on it (contract 1.4, §4.10).
    private func save(_ box: ContextBox, policy: MergePolicy) -> SaveFailure? {
        if let parent = box.parent {
            let before = box.context
            if let failure = box.context.save(policy: policy, checksConstraints: false) { return failure }
            push(before, written: box.context.lastSaved, into: parent)
            return nil
        }
        if isReadOnly && box.context.hasChanges {
            return SaveFailure(code: CoreDataErrorCode.fileWriteNoPermission)
        }
        if others.isEmpty {
            if let failure = box.context.save(policy: policy) { return failure }
            persistent = withoutTransientValues(box.context.saved)
            return nil
        }
        let failure = box.context.save(policy: policy) { candidate in
            self.resolveLockingConflicts(in: &candidate, policy: policy)
        }
        if let failure { return failure }
        var context = box.context
        for id in context.lastSaved {
            if let record = context.graph[id] {
                persistent.replace(id, with: withoutTransientValues(record))
                versions[id, default: 0] += 1
                context.readVersions[id] = versions[id]
            } else {
                persistent.remove(id)
                versions[id] = nil
                context.readVersions[id] = nil
            }
        }
        box.context = context
        return nil
    }

    /// Reopens the store: every context loses its pending changes and what it read.
    func resetAllContexts(readOnly: Bool) {
        isReadOnly = readOnly
        if others.isEmpty {
            main.context.reset(to: persistent)
            return
        }
        main.context.reset(to: ObjectGraph())
        for name in otherNames { others[name]!.context.reset(to: ObjectGraph()) }
        generation += 1
        synchronize(main)
        for name in otherNames { synchronize(others[name]!) }
    }

    /// Answers from the graph as of the last successful save, which pending changes never touch
    /// (the persistent store's rows, which a second context on the coordinator reads).
    public func performOnSavedState(_ query: StoreRequest) throws -> StoreResponse {
        let saved = persistent
        func savedObject(_ name: String) throws(StoreAdapterError) -> ObjectRecord {
            guard let record = objectIDs[name].flatMap({ saved[$0] }) else {
                throw StoreAdapterError(.noSuchObject, "no saved object named '\(name)'")
            }
            return record
        }
        switch query {
        case .exists(let name):
            return .exists(objectIDs[name].map(saved.contains) ?? false)
        case .value(let name, let attribute):
            let record = try savedObject(name)
            return .value(record.attributes[try context.schema.attributeSlot(attribute, of: record.entity)])
        case .related(let name, let relationship):
            let record = try savedObject(name)
            let slot = try context.schema.relationshipSlot(relationship, of: record.entity)
            return .objects(record.relationships[slot].map { saved[$0]!.name })
        case .count(let entityName):
            let entity = try context.schema.entityIndex(named: entityName)
            return .count(saved.ids.reduce(0) { $0 + (context.schema.entity(saved[$1]!.entity, isKindOf: entity) ? 1 : 0) })
        default:
            throw StoreAdapterError(.invalidRequest, "only a query (exists, value, related, count) reads the saved state")
        }
    }

    private func liveObject(_ name: String, in box: ContextBox) throws(StoreAdapterError) -> ObjectID {
        guard let id = objectIDs[name], box.context.isLive(id) else { throw noSuchObject(name) }
        register(id, in: box)
        return id
    }

    private func noSuchObject(_ name: String) -> StoreAdapterError {
        StoreAdapterError(.noSuchObject, "no live object named '\(name)'")
    }

    private func coerce(_ value: AttributeValue, for entity: Int, slot: Int) throws(StoreAdapterError) -> AttributeValue {
        let attribute = context.schema.entities[entity].attributes[slot]
        do {
            return try value.coerced(to: attribute.type)
        } catch {
            throw StoreAdapterError(.invalidRequest, "'\(attribute.name)': \(error)")
        }
    }
}

private extension StoreRequest {
    /// A request that only reads: it changes no object, row or version (a fetch or a read may
    /// register objects in its context, which changes nothing another context sees).
    var isQuery: Bool {
        switch self {
        case .exists, .value, .related, .count, .validate, .changes, .isDeleted, .fetch: true
        default: false
        }
    }
}

/// The reference store as an adapter: `momlint conformance --adapter reference`.
public struct ReferenceStoreAdapter: StoreAdapter {
    public init() {}

    public var name: String { "reference" }

    public func openStore(_ setup: StoreSetup) throws -> any ConformanceStore {
        try ReferenceStore(model: setup.model)
    }
}

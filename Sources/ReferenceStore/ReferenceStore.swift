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
    var context: ObjectContext
    /// Scenario names to object IDs, kept across saves, resets and reopens (contract §3).
    private var objectIDs: [String: ObjectID] = [:]
    private var nextID: ObjectID = 0
    #if DEBUG
    /// Every request so far, printed when an invariant check fails so the case can be replayed.
    private var trace: [StoreRequest] = []
    #endif

    /// Opens a fresh, empty store for `model`. Throws when the model cannot describe a store
    /// (an unknown destination entity, an inheritance cycle, a constraint on a to-many).
    public init(model: Model) throws(StoreAdapterError) {
        self.model = model
        context = ObjectContext(schema: try StoreSchema(model: model))
    }

    /// Opens a fresh store for a scenario: `ConformanceSuite.check(scenario, adapter: ReferenceStore.init)`.
    public convenience init(_ setup: StoreSetup) throws(StoreAdapterError) {
        try self.init(model: setup.model)
    }

    public func perform(_ request: StoreRequest) throws -> StoreResponse {
        #if DEBUG
        trace.append(request)
        defer { checkInvariants(after: request) }
        #endif
        return try handle(request)
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

    private func handle(_ request: StoreRequest) throws(StoreAdapterError) -> StoreResponse {
        switch request {
        case .insert(let entityName, let name, let values):
            guard objectIDs[name] == nil else {
                throw StoreAdapterError(.invalidRequest, "an object named '\(name)' was already inserted")
            }
            let entity = try context.schema.entityIndex(named: entityName)
            var slots: [(slot: Int, value: AttributeValue)] = []
            for (attribute, value) in values {
                let slot = try context.schema.attributeSlot(attribute, of: entity)
                slots.append((slot, try coerce(value, for: entity, slot: slot)))
            }
            try context.insert(entity: entity, name: name, as: nextID, values: slots)
            objectIDs[name] = nextID
            nextID += 1
            return .done
        case .set(let name, let attribute, let value):
            let id = try liveObject(name)
            let entity = context.record(id)!.entity
            let slot = try context.schema.attributeSlot(attribute, of: entity)
            context.set(id, slot: slot, to: try coerce(value, for: entity, slot: slot))
            return .done
        case .link(let name, let relationship, let destinationName):
            let id = try liveObject(name)
            let slot = try context.schema.relationshipSlot(relationship, of: context.record(id)!.entity)
            try context.link(id, slot: slot, to: try liveObject(destinationName))
            return .done
        case .unlink(let name, let relationship, let destinationName):
            let id = try liveObject(name)
            let slot = try context.schema.relationshipSlot(relationship, of: context.record(id)!.entity)
            guard let destination = objectIDs[destinationName] else { throw noSuchObject(destinationName) }
            try context.unlink(id, slot: slot, from: destination)
            return .done
        case .delete(let name):
            context.delete(try liveObject(name))
            return .done
        case .save(let policy):
            if let failure = context.save(policy: policy) { return .saveFailed(failure) }
            return .saved
        case .reset, .reopen:
            context.reset()
            return .done
        case .exists(let name):
            return .exists(objectIDs[name].map(context.isLive) ?? false)
        case .value(let name, let attribute):
            let id = try liveObject(name)
            let slot = try context.schema.attributeSlot(attribute, of: context.record(id)!.entity)
            return .value(context.record(id)!.attributes[slot])
        case .related(let name, let relationship):
            let id = try liveObject(name)
            let record = context.record(id)!
            let slot = try context.schema.relationshipSlot(relationship, of: record.entity)
            return .objects(record.relationships[slot].map { context.record($0)!.name })
        case .count(let entityName):
            return .count(context.liveCount(ofKind: try context.schema.entityIndex(named: entityName)))
        }
    }

    /// Answers from the graph as of the last successful save, which pending changes never touch
    /// (the persistent store's rows, which a second context on the coordinator reads).
    public func performOnSavedState(_ query: StoreRequest) throws -> StoreResponse {
        let saved = context.saved
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

    private func liveObject(_ name: String) throws(StoreAdapterError) -> ObjectID {
        guard let id = objectIDs[name], context.isLive(id) else { throw noSuchObject(name) }
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

/// The reference store as an adapter: `momlint conformance --adapter reference`.
public struct ReferenceStoreAdapter: StoreAdapter {
    public init() {}

    public var name: String { "reference" }

    public func openStore(_ setup: StoreSetup) throws -> any ConformanceStore {
        try ReferenceStore(model: setup.model)
    }
}

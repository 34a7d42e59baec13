import Conformance
import DataModel
import Foundation
import ModelExport

/// One open store inside a shim, for one scenario: forwards each request as a protocol line and
/// turns the answer back into a `StoreResponse`.
final class ProcessStore: ConformanceStore {
    private let connection: ShimConnection
    /// The model the store's data follow: the scenario's, or the version of the last reopen.
    private var model: Model
    private let pool: ShimPool
    /// The entity each object was inserted as, to read `value` answers as the attribute's type.
    private var entityOfObject: [String: String] = [:]
    private var isClosed = false
    /// How long one request may take when the scenario allows itself longer than the
    /// adapter's default (a deep chain's save); nil for the default.
    private let requestTimeLimit: Duration?

    init(connection: ShimConnection, model: Model, pool: ShimPool, requestTimeLimit: Duration? = nil) {
        self.connection = connection
        self.model = model
        self.pool = pool
        self.requestTimeLimit = requestTimeLimit
    }

    func perform(_ request: StoreRequest) throws -> StoreResponse {
        try exchange(request, label: Self.describe(request).label) { id in try ShimMessage.line(id: id, request: request) }
    }

    /// A query of the saved state: the query's line wrapped in `saved`,
    /// `{"id":7,"saved":{"exists":{"object":"atlas"}}}` (contract 1.2), answered as the query is.
    func performOnSavedState(_ query: StoreRequest) throws -> StoreResponse {
        switch query {
        case .exists, .value, .related, .count: break
        default: throw StoreAdapterError(.invalidRequest, "only a query (exists, value, related, count) reads the saved state")
        }
        return try exchange(query, label: "saved " + Self.describe(query).label) { id in
            try ShimMessage.line(id: id, key: "saved", body: query)
        }
    }

    /// Opens the saved data with another model version (contract 1.3): the version travels
    /// as its export, like the scenario's model in `open`.
    func reopen(with model: Model, modelPath: String, migration: MigrationMode) throws -> StoreResponse {
        let exported: Data
        do {
            exported = try ModelExporter().export(model).model.jsonData(pretty: false)
        } catch let error as ModelExportError {
            throw StoreAdapterError(.invalidRequest, "the model version cannot be exported for the shim:\n\(error)")
        }
        let label = "reopen with '\((modelPath as NSString).lastPathComponent)' (migrate: \(migration.rawValue))"
        let answer = try connection.exchange(label, expecting: ["done", "openFailed"], within: requestTimeLimit) { id in
            try ShimMessage.reopenWithModelLine(id: id, modelPath: modelPath, migration: migration, exportedModel: exported)
        }
        let response = try self.response(from: answer, to: label, described: #"expected {"done":{}} or "#
            + #"{"openFailed":{"_0":{"code":134100,"message":"…"}}}; docs/implementers.md §3.3"#)
        if response == .done {
            entityOfObject = ModelVersionReopen.entities(of: entityOfObject, from: self.model, to: model)
            self.model = model
        }
        return response
    }

    private func exchange(_ request: StoreRequest, label: String,
                          line: (Int) throws -> String) throws -> StoreResponse {
        let expected = Self.describe(request).answers
        let answer = try connection.exchange(label, expecting: expected, within: requestTimeLimit, line)
        let response = try self.response(from: answer, to: label, described: "docs/adapter-contract.md §7")
        var request = request
        if case .inContext(_, let inner) = request { request = inner }
        switch (request, response) {
        case (.insert(let entity, let object, _), _):
            entityOfObject[object] = entity
        case (.value(let object, let attribute), .value(let value)):
            return .value(try typed(value, object: object, attribute: attribute, label: label))
        default:
            break
        }
        return response
    }

    /// The answer to `label` as a response: an `error` answer is thrown as the shim's error, and
    /// a line that is not a valid message (`description` says where it is described) breaks
    /// the connection.
    private func response(from answer: ShimMessage.Answer, to label: String,
                          described description: String) throws(StoreAdapterError) -> StoreResponse {
        if answer.kind == "error" { throw Self.storeError(from: answer, connection: connection) }
        do {
            return try JSONDecoder().decode(StoreResponse.self, from: answer.data)
        } catch {
            throw connection.broken("answered \(label) with \(ShimMessage.quoted(answer.line)), which is not a valid "
                + "\"\(answer.kind)\" message (\(description))", waitForExit: false)
        }
    }

    /// JSON carries dates and UUIDs as strings and cannot tell 2.0 from 2: read the answer as
    /// the attribute's type says (contract §5), as the Swift adapters answer. A date must come
    /// as an ISO 8601 string (or null): anything else is a protocol error, never guessed at.
    private func typed(_ value: AttributeValue, object: String, attribute: String,
                       label: String) throws(StoreAdapterError) -> AttributeValue {
        guard let type = entityOfObject[object].flatMap(model.entity(named:))
            .flatMap({ model.property(named: attribute, in: $0)?.asAttribute?.attributeType }) else { return value }
        if type == .date {
            switch value {
            case .null: return value
            case .string(let text):
                if let date = AttributeValue.date(fromISO8601DateTime: text) { return date }
                throw StoreAdapterError(.storeFailure, "the shim '\(connection.command)' answered \(label) with "
                    + "\(ShimMessage.quoted(text)), which is not an ISO 8601 date and time; answer dates as e.g. "
                    + "\"2024-05-01T12:00:00Z\" (docs/implementers.md §3.5)")
            default:
                throw StoreAdapterError(.storeFailure, "the shim '\(connection.command)' answered \(label) with "
                    + "\(value), which is not an ISO 8601 date string; answer dates as e.g. \"2024-05-01T12:00:00Z\" "
                    + "(docs/adapter-contract.md §5)")
            }
        }
        return (try? value.coerced(to: type)) ?? value
    }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        if !connection.isBroken {
            do {
                let answer = try connection.exchange("close", expecting: ["done"]) { id in
                    try ShimMessage.line(id: id, key: "close", body: ShimMessage.Close())
                }
                // A shim that cannot close cleanly is not trusted with another scenario.
                if answer.kind != "done" { connection.finish() }
            } catch {
                // The connection is broken and stopped; the next scenario starts a new shim.
            }
        }
        pool.checkIn(connection)
    }

    /// The error a shim reported for a request it could not perform (contract §6).
    static func storeError(from answer: ShimMessage.Answer, connection: ShimConnection) -> StoreAdapterError {
        guard let body = try? JSONDecoder().decode(ShimMessage.ErrorAnswer.self, from: answer.data).error else {
            return connection.broken("answered with \(ShimMessage.quoted(answer.line)), which is not a valid error "
                + #"(expected {"id":N,"error":{"kind":"noSuchObject","message":"…"}})"#, waitForExit: false)
        }
        return StoreAdapterError(StoreAdapterError.Kind(rawValue: body.kind) ?? .storeFailure, body.message)
    }

    /// A short name for a request in messages, and the answers it may get.
    static func describe(_ request: StoreRequest) -> (label: String, answers: Set<String>) {
        switch request {
        case .insert(let entity, let object, _): ("insert \(entity) '\(object)'", ["done"])
        case .set(let object, let attribute, _): ("set '\(object).\(attribute)'", ["done"])
        case .link(let object, let relationship, let destination): ("link '\(object).\(relationship)' to '\(destination)'", ["done"])
        case .unlink(let object, let relationship, let destination): ("unlink '\(destination)' from '\(object).\(relationship)'", ["done"])
        case .delete(let object): ("delete '\(object)'", ["done"])
        case .save(let policy): ("save (\(policy.rawValue))", ["saved", "saveFailed"])
        case .reset: ("reset", ["done"])
        case .reopen: ("reopen", ["done"])
        case .exists(let object): ("exists '\(object)'", ["exists"])
        case .value(let object, let attribute): ("value '\(object).\(attribute)'", ["value"])
        case .related(let object, let relationship): ("related '\(object).\(relationship)'", ["objects"])
        case .count(let entity): ("count \(entity)", ["count"])
        case .addContext(let name, let parent):
            ("add context '\(name)'" + (parent.map { " (child of '\($0)')" } ?? " (on the store)"), ["done"])
        case .inContext(let context, let request):
            (describe(request).label + " in '\(context)'", describe(request).answers)
        case .refresh(let object, let mergeChanges): ("refresh '\(object)' (mergeChanges: \(mergeChanges))", ["done"])
        case .refreshAll: ("refreshAll", ["done"])
        case .validate(let object, let attribute, _): ("validate '\(object).\(attribute)'", ["valid", "invalid"])
        case .changes: ("changes", ["changes"])
        case .isDeleted(let object): ("isDeleted '\(object)'", ["isDeleted"])
        case .fetch(let request): ("fetch \(request)", ["objects"])
        case .reopenWithOptions(let options): ("reopen (\(options))", ["done"])
        }
    }
}

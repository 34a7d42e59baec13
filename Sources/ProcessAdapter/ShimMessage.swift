import Conformance
import Foundation

/// The lines of the process protocol (docs/implementers.md): each one JSON object with an
/// `id` and one key naming the message. Store requests and responses use the contract's JSON
/// form (docs/adapter-contract.md §7) with the `id` added beside their key.
enum ShimMessage {
    /// `{"id":1,"hello":{"contractVersion":"…"}}`, with `AdapterContract.version`: the first line
    /// a shim reads.
    struct Hello: Encodable {
        var contractVersion = AdapterContract.version
    }

    /// `{"id":1,"hello":{…}}`, the shim's answer to `hello` (decoding ignores the id).
    struct HelloEnvelope: Decodable {
        var hello: HelloAnswer
    }

    struct HelloAnswer: Decodable {
        var contractMajorVersion: Int
        /// The minor version the shim implements (since 1.4); absent means 1.3 or earlier, and
        /// the features of later minor versions are skipped (`Feature.introduced(after:)`).
        var contractMinorVersion: Int?
        var name: String?
        var unsupportedFeatures: [String]?
    }

    /// `{"id":2,"open":{"model":{…},"modelPath":"…","scenario":"…"}}`: a fresh, empty store
    /// for this model. `model` is the normalized export (`momlint export`, compact), so a shim
    /// needs no XML parser.
    static func openLine(id: Int, scenario: String, modelPath: String, exportedModel: Data) throws -> String {
        let rest = String(decoding: try encoder.encode(["modelPath": modelPath, "scenario": scenario]), as: UTF8.self)
        return "{\"id\":\(id),\"open\":{\"model\":" + String(decoding: exportedModel, as: UTF8.self)
            + "," + rest.dropFirst() + "}"
    }

    /// `{"id":7,"reopenWithModel":{"model":{…},"modelPath":"…","migrate":"lightweight"}}`
    /// (contract 1.3): close the store and open its saved data with another model version,
    /// migrating as `migrate` says. `model` is the version's export, as in `open`. Answered
    /// `{"done":{}}` or `{"openFailed":{"_0":{"code":134100,"message":"…"}}}`.
    static func reopenWithModelLine(id: Int, modelPath: String, migration: MigrationMode,
                                    exportedModel: Data) throws -> String {
        let rest = String(decoding: try encoder.encode(["modelPath": modelPath, "migrate": migration.rawValue]), as: UTF8.self)
        return "{\"id\":\(id),\"reopenWithModel\":{\"model\":" + String(decoding: exportedModel, as: UTF8.self)
            + "," + rest.dropFirst() + "}"
    }

    /// `{"id":9,"close":{}}`: the scenario is over; the shim may be asked to open another store.
    struct Close: Encodable {}

    /// A line the shim wrote in answer, split into its id and the rest.
    struct Answer {
        var id: Int
        var line: String
        var data: Data
        /// The message's key (`done`, `saved`, `error`, …).
        var kind: String
    }

    /// A store error the shim reports: `{"id":5,"error":{"kind":"noSuchObject","message":"…"}}`
    /// (decoding ignores the id).
    struct ErrorAnswer: Decodable {
        struct Body: Decodable {
            var kind: String
            var message: String
        }
        var error: Body
    }

    /// The line for message `body` under `key`, with `id` first so a person reading a log sees it.
    static func line(id: Int, key: String, body: some Encodable) throws -> String {
        let encoded = try encoder.encode(body)
        return "{\"id\":\(id),\"\(key)\":" + String(decoding: encoded, as: UTF8.self) + "}"
    }

    /// The line for a store request: its contract JSON with the id added.
    static func line(id: Int, request: StoreRequest) throws -> String {
        let encoded = String(decoding: try encoder.encode(request), as: UTF8.self)
        // A request encodes as an object with one key, `{"insert":{…}}`: splice the id in.
        return "{\"id\":\(id)," + encoded.dropFirst()
    }

    /// Reads an answer line: a JSON object with an integer `id` and exactly one other key.
    static func answer(from line: String) throws(ProtocolViolation) -> Answer {
        let data = Data(line.utf8)
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw ProtocolViolation("printed a line that is not a JSON object: \(quoted(line))")
        }
        guard let number = object["id"] as? NSNumber, let id = Int(exactly: number.doubleValue),
              String(cString: number.objCType) != "c" else {
            throw ProtocolViolation("answered without an integer \"id\": \(quoted(line))")
        }
        let keys = object.keys.filter { $0 != "id" }
        guard keys.count == 1, let kind = keys.first else {
            throw ProtocolViolation("answered with \(keys.count) message keys besides \"id\" (expected exactly one): \(quoted(line))")
        }
        return Answer(id: id, line: line, data: data, kind: kind)
    }

    /// A line shortened for a message.
    static func quoted(_ line: String, limit: Int = 200) -> String {
        line.count <= limit ? "'\(line)'" : "'\(line.prefix(limit))…' (\(line.utf8.count) bytes)"
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()
}

/// The shim broke the protocol: what it did, in words for the failure message.
struct ProtocolViolation: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

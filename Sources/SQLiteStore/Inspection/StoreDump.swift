import Conformance
import DataModel
import Foundation
import GRDB

/// Every object of a store with its attributes and relationships, as `momlint store dump`
/// prints it: `{"schemaVersion":1,"store":{…},"objects":[…]}`.
///
/// Objects are in entity-number order, then by `Z_PK`. An object's `id` is the URI Core Data
/// gives its object IDs (`x-coredata://<store UUID>/<Entity>/p<Z_PK>`); dates are ISO 8601,
/// binary values `{"base64": "…"}`, UUIDs strings.
public struct StoreDump: Encodable, Sendable {
    public static let schemaVersion = 1

    public struct Store: Encodable, Sendable {
        public var path: String
        public var summary: String
        public var writer: String
        public var frameworkVersion: String?
        public var uuid: String?
        public var modelVersionHashes: [String: String]
        public var modelVersionIdentifiers: [String]
        public var modelVersionHashesVersion: Int?
        public var entities: [Entity]
    }

    public struct Entity: Encodable, Sendable {
        public var number: Int
        public var name: String
        /// Objects of exactly this entity (not counting sub-entities').
        public var objects: Int
    }

    public struct Object: Encodable, Sendable {
        public var entity: String
        public var id: String
        public var values: [String: AttributeValue]
        /// A to-one's destination id (or null), a to-many's ids (in order for an ordered one).
        public var relationships: [String: RelationshipValue]
    }

    public enum RelationshipValue: Encodable, Sendable, Equatable {
        case toOne(String?)
        case toMany([String])

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .toOne(let id): try container.encode(id)
            case .toMany(let ids): try container.encode(ids)
            }
        }
    }

    public var schemaVersion = StoreDump.schemaVersion
    public var store: Store
    public var objects: [Object]

    /// The dump as JSON. Throws `unreadableValue` for a number JSON cannot hold (an infinity a
    /// REAL column may store), naming the object and the attribute.
    public func json(pretty: Bool = true) throws -> Data {
        for object in objects { try StoreDump.checkJSONCanHold(object) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The same, for people: one block per object, every name and value escaped and bounded
    /// (`textBlock`).
    public var text: String {
        StoreDump.textHeader(store) + objects.map(StoreDump.textBlock).joined()
    }
}

extension SQLiteObjectStore {
    /// Every saved object of the store (pending changes are not included), in memory. A store
    /// of any size is better written with `writeDump(format:to:)`, which holds one object at a time.
    public func dump() throws -> StoreDump {
        var objects: [StoreDump.Object] = []
        let counts = try forEachSavedObject { objects.append($0) }
        return StoreDump(store: dumpedStore(counts: counts), objects: objects)
    }

    /// The store's part of the dump, with the objects counted per entity.
    func dumpedStore(counts: [Int]) -> StoreDump.Store {
        let description = fileDescription
        return StoreDump.Store(
            path: path, summary: description?.summary ?? "a momlint SQLite store",
            writer: description?.writer.rawValue ?? StoreFileDescription.Writer.momlint.rawValue,
            frameworkVersion: description?.frameworkVersion, uuid: description?.uuid,
            modelVersionHashes: description?.versionHashes ?? [:],
            modelVersionIdentifiers: description?.versionIdentifiers ?? [],
            modelVersionHashesVersion: description?.versionHashesVersion,
            entities: schema.entities.map { StoreDump.Entity(number: $0.number, name: $0.name, objects: counts[$0.index]) })
    }

    /// Calls `body` with each saved object, in entity-number order, then by `Z_PK`, reading one
    /// object at a time (the context that decodes them is renewed every 1,000 objects, so memory
    /// does not grow with the store); returns how many objects each entity has.
    ///
    /// Every row is checked before the first object is handed over: a row whose `Z_ENT` is not
    /// an entity of its table fails the whole dump, as a row would that no entity claims.
    /// A text value holding NUL is read whole (SQLite's text interface, which GRDB uses, stops
    /// at the first NUL), from the column's bytes.
    func forEachSavedObject(_ body: (StoreDump.Object) throws -> Void) throws -> [Int] {
        let schema = self.schema
        let uuid = fileDescription?.uuid
        func uri(_ id: ObjectID, entity: Int) -> String {
            let path = "\(schema.entities[entity].name)/p\(id.primaryKey)"
            return uuid.map { "x-coredata://\($0)/\(path)" } ?? path
        }
        return try readingSaved { (context: inout ObjectContext, db: Database) in
            for (tableIndex, table) in schema.tables.enumerated() {
                let numbers = schema.entities.filter { $0.tableIndex == tableIndex }.map { String($0.number) }
                let stray = "SELECT \(table.rowColumns) FROM \(table.name.quoted) WHERE \"Z_ENT\" IS NULL OR \"Z_ENT\" NOT IN (\(numbers.joined(separator: ", "))) LIMIT 1"
                if let row = try Row.fetchOne(db, sql: stray) {
                    _ = try context.decode(row, table: tableIndex)
                }
            }
            var counts = Array(repeating: 0, count: schema.entities.count)
            var sinceRenewal = 0
            for entity in schema.entities {
                let table = schema.tables[entity.tableIndex]
                // Each attribute column's bytes, only when it is text holding NUL.
                let wholeText = entity.attributes.compactMap(\.column).map { column in
                    let name = table.columns[column].name.quoted
                    return "CASE WHEN typeof(\(name)) = 'text' AND instr(CAST(\(name) AS BLOB), x'00') > 0 THEN CAST(\(name) AS BLOB) END"
                }
                let sql = "SELECT \(([table.rowColumns] + wholeText).joined(separator: ", ")) FROM \(table.name.quoted) WHERE \"Z_ENT\" = ? ORDER BY \"Z_PK\""
                let rows = try Row.fetchCursor(db, sql: sql, arguments: [entity.number])
                let firstWholeText = 3 + table.columns.count
                while let row = try rows.next() {
                    if sinceRenewal == 1_000 {
                        context = ObjectContext(schema: schema, highestPrimaryKeys: context.highestPrimaryKeys)
                        sinceRenewal = 0
                        // The time limit bounds each thousand objects, not a large store's whole dump.
                        snapshot?.restartBudget()
                    }
                    sinceRenewal += 1
                    let id = try context.register(row, table: entity.tableIndex, db)
                    let state = context.objects[id]!
                    counts[entity.index] += 1
                    var values: [String: AttributeValue] = [:]
                    var textColumn = firstWholeText
                    for (slot, attribute) in entity.attributes.enumerated() where attribute.column != nil {
                        values[attribute.name] = state.attributes[slot]
                        if case .blob(let bytes) = (row[textColumn] as DatabaseValue).storage {
                            let text = String(decoding: bytes, as: UTF8.self)
                            values[attribute.name] = attribute.type == .uuid ? .uuid(text) : .string(text)
                        }
                        textColumn += 1
                    }
                    var relationships: [String: StoreDump.RelationshipValue] = [:]
                    for (slot, mapping) in entity.relationshipSlots {
                        var destinations: [String] = []
                        for destination in try context.destinations(id, slot, db) {
                            let entity = try context.state(destination, db)?.entity ?? schema.tables[destination.table].rootEntity
                            destinations.append(uri(destination, entity: entity))
                        }
                        relationships[mapping.name] = mapping.relationship.isToMany
                            ? .toMany(destinations) : .toOne(destinations.first)
                    }
                    try body(StoreDump.Object(entity: entity.name, id: uri(id, entity: entity.index),
                                              values: values, relationships: relationships))
                }
            }
            return counts
        }
    }
}

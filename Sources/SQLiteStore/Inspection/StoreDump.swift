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
        for object in objects {
            for (name, value) in object.values.sorted(by: { $0.key < $1.key }) {
                guard case .double(let number) = value, !number.isFinite else { continue }
                throw SQLiteStoreError(.unreadableValue,
                                       "\(object.id) has \(PrintableText.escaped(name)) \(number), which JSON cannot hold; dump it with --format text")
            }
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = pretty ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    /// The same, for people: one block per object.
    public var text: String {
        var lines = ["\(store.path): \(store.summary)"]
        for entity in store.entities {
            lines.append("  \(entity.name) (entity \(entity.number)): \(entity.objects) object\(entity.objects == 1 ? "" : "s")")
        }
        for object in objects {
            lines.append("")
            lines.append("\(object.entity) \(object.id)")
            for (name, value) in object.values.sorted(by: { $0.key < $1.key }) {
                lines.append("  \(name) = \(value)")
            }
            for (name, value) in object.relationships.sorted(by: { $0.key < $1.key }) {
                switch value {
                case .toOne(let id): lines.append("  \(name) -> \(id ?? "nil")")
                case .toMany(let ids): lines.append("  \(name) -> [\(ids.joined(separator: ", "))]")
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension SQLiteObjectStore {
    /// Every saved object of the store (pending changes are not included).
    public func dump() throws -> StoreDump {
        let schema = self.schema
        let uuid = fileDescription?.uuid
        func uri(_ id: ObjectID, entity: Int) -> String {
            let path = "\(schema.entities[entity].name)/p\(id.primaryKey)"
            return uuid.map { "x-coredata://\($0)/\(path)" } ?? path
        }
        return try readingSaved { (context: inout ObjectContext, db: Database) in
            var objects: [(entity: Int, key: Int64, object: StoreDump.Object)] = []
            var counts = Array(repeating: 0, count: schema.entities.count)
            for (tableIndex, table) in schema.tables.enumerated() {
                let rows = try Row.fetchAll(db, sql: "SELECT \(table.rowColumns) FROM \(table.name.quoted) ORDER BY \"Z_PK\"")
                for row in rows {
                    let id = try context.register(row, table: tableIndex, db)
                    let state = context.objects[id]!
                    let entity = schema.entities[state.entity]
                    counts[entity.index] += 1
                    var values: [String: AttributeValue] = [:]
                    for (slot, attribute) in entity.attributes.enumerated() where attribute.column != nil {
                        values[attribute.name] = state.attributes[slot]
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
                    objects.append((entity.index, id.primaryKey,
                                    StoreDump.Object(entity: entity.name, id: uri(id, entity: entity.index),
                                                     values: values, relationships: relationships)))
                }
            }
            objects.sort { ($0.entity, $0.key) < ($1.entity, $1.key) }
            let description = fileDescription
            return StoreDump(
                store: StoreDump.Store(
                    path: path, summary: description?.summary ?? "a momlint SQLite store",
                    writer: description?.writer.rawValue ?? StoreFileDescription.Writer.momlint.rawValue,
                    frameworkVersion: description?.frameworkVersion, uuid: uuid,
                    modelVersionHashes: description?.versionHashes ?? [:],
                    modelVersionIdentifiers: description?.versionIdentifiers ?? [],
                    modelVersionHashesVersion: description?.versionHashesVersion,
                    entities: schema.entities.map { StoreDump.Entity(number: $0.number, name: $0.name, objects: counts[$0.index]) }),
                objects: objects.map(\.object))
        }
    }
}

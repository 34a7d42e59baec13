/// A Core Data model as `momlint export --format json` writes it: every entity with its
/// inheritance resolved, so a program in any language can read the model without an XML
/// parser. The JSON Schema is `docs/schemas/model-export.schema.json`.
///
/// Encode-only: Swift code uses the values; other languages read the JSON.
///
/// Values (defaults, limits) are written as the conformance protocol writes attribute values
/// (docs/adapter-contract.md §5): numbers, booleans, strings, and dates as ISO 8601 strings.
public struct ExportedModel: Encodable, Hashable, Sendable {
    /// The version of this document's format. Bumped when a field changes meaning or goes away;
    /// new optional fields do not bump it.
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var source: Source
    /// Every entity, in document order.
    public var entities: [Entity]
    public var configurations: [Configuration]
    public var composites: [Composite]
    /// Core Data's `NSStoreModelVersionHashesDigest` for the model (base64 of a SHA-512 over
    /// every entity's name and version hash, docs/version-hashes.md): two versions with the
    /// same digest are one schema to Core Data. Absent when some entity has no hash.
    public var versionHashesDigest: String?

    /// Where the model was read from.
    public struct Source: Encodable, Hashable, Sendable {
        /// The `contents` file, as the loader was given it.
        public var file: String
        /// The `.xcdatamodeld` bundle, when the model came from one.
        public var bundle: String?
        /// The version's name (the `.xcdatamodel` folder without its extension), when known.
        public var version: String?
    }

    public struct Entity: Encodable, Hashable, Sendable {
        public var name: String
        public var className: String?
        public var isAbstract: Bool
        /// The direct parent entity, if any.
        public var parent: String?
        /// Parent, grandparent, …, nearest first.
        public var ancestors: [String]
        /// Entities whose parent is this one.
        public var subentities: [String]
        /// Every descendant, breadth first.
        public var allSubentities: [String]
        /// Own and inherited attributes, ancestors' first (as Core Data orders them).
        public var attributes: [Attribute]
        /// Own and inherited relationships, ancestors' first.
        public var relationships: [Relationship]
        /// Own and inherited uniqueness constraints.
        public var uniquenessConstraints: [UniquenessConstraint]
        /// The name the entity had in the version it was renamed from (Xcode's "Renaming ID"),
        /// when set: lightweight migration matches it to that entity.
        public var renamingIdentifier: String?
        /// Changes the entity's version hash by hand, when set.
        public var versionHashModifier: String?
        /// `NSEntityDescription.versionHash` (base64 of 32 bytes): what a store written by this
        /// model keeps for the entity in `NSStoreModelVersionHashes`. Absent when the entity
        /// cannot be hashed (an unknown attribute type, a missing parent).
        public var versionHash: String?
    }

    public struct Attribute: Encodable, Hashable, Sendable {
        public var name: String
        /// The entity that declares the attribute (this one, or an ancestor).
        public var declaredBy: String
        /// Core Data's spelling: `Integer 16`, `String`, `Date`, … (coredata-semantics §5).
        public var type: String
        public var isOptional: Bool
        public var isTransient: Bool
        public var isDerived: Bool
        /// The value a new object takes when none is given.
        public var defaultValue: ExportValue?
        /// Numbers: the smallest value. Strings: the shortest length. Dates: the earliest date.
        public var minimum: ExportValue?
        /// Numbers: the largest value. Strings: the longest length. Dates: the latest date.
        public var maximum: ExportValue?
        /// Strings: a regular expression the whole value must match (ICU syntax).
        public var regularExpression: String?
        /// Composite attributes: the `<composite>` they embed.
        public var composite: String?
        /// The name the attribute had in the version it was renamed from, when set.
        public var renamingIdentifier: String?
        /// Changes the attribute's version hash by hand, when set.
        public var versionHashModifier: String?
        /// `NSAttributeDescription.versionHash` (base64 of 32 bytes), as the declaring entity
        /// (or composite) has it. Absent for an attribute type Core Data does not know.
        public var versionHash: String?
    }

    public struct Relationship: Encodable, Hashable, Sendable {
        public var name: String
        public var declaredBy: String
        public var destination: String
        /// The inverse relationship's name, when the model declares one that exists.
        public var inverse: String?
        /// The entity the inverse is declared on (the destination or one of its ancestors).
        public var inverseDeclaredBy: String?
        public var isToMany: Bool
        public var isOrdered: Bool
        public var isOptional: Bool
        public var isTransient: Bool
        /// The fewest objects a non-empty to-many may hold (0 when the model sets none).
        public var minCount: Int
        /// The most objects a to-many may hold; absent when unbounded. 1 for a to-one.
        public var maxCount: Int?
        public var deleteRule: DeleteRule
        /// The name the relationship had in the version it was renamed from, when set.
        public var renamingIdentifier: String?
        /// Changes the relationship's version hash by hand, when set.
        public var versionHashModifier: String?
        /// `NSRelationshipDescription.versionHash` (base64 of 32 bytes).
        public var versionHash: String?
    }

    /// `NSDeleteRule`, spelled for JSON.
    public enum DeleteRule: String, Encodable, Hashable, Sendable {
        case noAction, nullify, cascade, deny
    }

    public struct UniquenessConstraint: Encodable, Hashable, Sendable {
        /// The constrained properties: their values together must be unique.
        public var properties: [String]
        /// The entity that declares the constraint; conflicts are looked for among the objects
        /// of this entity and all its sub-entities.
        public var declaredBy: String
    }

    public struct Configuration: Encodable, Hashable, Sendable {
        public var name: String
        public var usedWithCloudKit: Bool
        public var entities: [String]
    }

    public struct Composite: Encodable, Hashable, Sendable {
        public var name: String
        public var attributes: [Attribute]
    }
}

/// A default value or limit, as JSON writes it. Encode-only: the export is written for other
/// programs to read; Swift code uses the values directly.
public enum ExportValue: Encodable, Hashable, Sendable {
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    case string(String)

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let value): try container.encode(value)
        case .integer(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

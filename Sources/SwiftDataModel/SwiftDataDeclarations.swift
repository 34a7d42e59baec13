import DataModel
import SwiftSyntax

/// A type as written on a stored property, reduced to what decides how SwiftData stores it.
struct StoredType: Hashable, Sendable {
    indirect enum Shape: Hashable, Sendable {
        /// `Name` (module prefixes dropped).
        case named(String)
        /// `[Element]` or `Array<Element>`.
        case array(element: StoredType)
        /// `[Key: Value]`, `Set<Element>` and other generic containers.
        case collection
    }

    var shape: Shape
    var isOptional: Bool
    /// The type as written, for messages.
    var spelling: String

    var name: String? {
        if case .named(let name) = shape { return name }
        return nil
    }
}

/// One stored property of a `@Model` class, as declared.
struct StoredPropertyRecord: Sendable {
    var name: String
    /// Nil when the property has no annotation and its initial value does not say its type.
    var type: StoredType?
    /// The initial value as written, e.g. `""`, `Date.now`; nil when there is none.
    var initialValue: InitialValue?
    var attributeMacro: AttributeMacro?
    var relationshipMacro: RelationshipMacro?
    /// Rule ids a `// momlint:disable …` comment on the declaration silences.
    var disabledRules: String?
    var location: DataModel.SourceLocation
}

/// An initial value: a literal a rule can check, or code SwiftData evaluates.
enum InitialValue: Hashable, Sendable {
    case string(String)
    /// A whole number in decimal (`0x1F` is kept as "31"), see `SwiftNumberLiteral`.
    case integer(String)
    /// A decimal floating-point number ("1e3", "0.25" for `0x1p-2`).
    case float(String)
    case boolean(Bool)
    case `nil`
    case expression(String)
}

/// `@Attribute(options…, originalName:, hashModifier:)`.
struct AttributeMacro: Hashable, Sendable {
    var isUnique = false
    var externalStorage = false
    var isEphemeral = false
    var allowsCloudEncryption = false
    var preservesValueOnDeletion = false
    var isSpotlight = false
    /// `.transformable(by: Name.self)` or `.transformable(by: "name")`: the transformer's name.
    var transformerName: String?
    var originalName: String?
    var hashModifier: String?
}

/// `@Relationship(options…, deleteRule:, minimumModelCount:, maximumModelCount:, originalName:, inverse:, hashModifier:)`.
struct RelationshipMacro: Hashable, Sendable {
    var deleteRule: DeleteRule?
    var minimumModelCount: Int?
    var maximumModelCount: Int?
    var originalName: String?
    var hashModifier: String?
    /// `inverse: \Type.property`: the type named and the property.
    var inverseTypeName: String?
    var inverseProperty: String?
    /// `@Relationship(.unique)`.
    var isUnique = false
}

/// `#Unique<Model>([\.a], [\.b, \.c])` or `#Index<Model>(…)`: groups of property names.
struct KeyPathGroupsMacro: Sendable {
    var groups: [[String]]
    var location: DataModel.SourceLocation
}

/// A `@Model` class as declared in one file.
struct ModelClassRecord: Sendable {
    var name: String
    /// The types it is declared in, outermost first (`["SchemaV2"]` for a class inside
    /// `enum SchemaV2: VersionedSchema` or an extension of it); empty at the top level.
    var enclosingTypes: [String] = []
    /// The first inherited type: a superclass when it names another `@Model` class.
    var firstInheritedName: String?
    var location: DataModel.SourceLocation
    var disabledRules: String?
    var properties: [StoredPropertyRecord]
    var uniques: [KeyPathGroupsMacro]
    var indexes: [KeyPathGroupsMacro]
    /// Properties whose type could not be told, named for a note.
    var untypedProperties: [String]
}

/// A `ModelConfiguration(…, cloudKitDatabase: …)` call.
struct CloudKitUse: Sendable {
    var database: String
    var location: DataModel.SourceLocation
}

/// A type named by path as the sources write it (`SchemaV1.Tag` in `SchemaV1.Tag.self`), and where.
struct TypePath: Hashable, Sendable {
    var components: [String]
    var location: DataModel.SourceLocation

    var name: String? { components.last }
    /// The component before the name (`SchemaV1` in `SchemaV1.Tag`).
    var qualifier: String? { components.dropLast().last }
}

/// A `MigrationStage` as written: a `.lightweight(…)`/`.custom(…)` call, an array of stages, a
/// sum of such arrays, or the name of a static property holding one, resolved once every file
/// is read (a plan's stages may be declared in an extension in another file).
indirect enum StageExpression: Sendable {
    case stage(StageRecord)
    case list([StageExpression])
    /// A static property of the plan (`migrateV1toV2`, `Self.migrateV1toV2`).
    case reference(String)
    /// Code momlint cannot read without running it.
    case unreadable
}

/// `MigrationStage.lightweight(fromVersion: A.self, toVersion: B.self)` or
/// `.custom(fromVersion:toVersion:willMigrate:didMigrate:)`.
struct StageRecord: Sendable {
    var isCustom: Bool
    var from: TypePath?
    var to: TypePath?
    var location: DataModel.SourceLocation
    var hasWillMigrate: Bool
    var hasDidMigrate: Bool
}

/// `typealias Name = Target` (in a versioned schema, an app's module or anywhere).
struct TypeAliasRecord: Sendable {
    var name: String
    var enclosingTypes: [String]
    var target: [String]
}

/// `ModelContainer(for: …, migrationPlan: P.self)`: the versioned schema it is made with (from
/// `Schema(versionedSchema: X.self)` or `Schema(X.models)`), and the plan.
struct ContainerRecord: Sendable {
    var schema: TypePath?
    var plan: TypePath?
    var location: DataModel.SourceLocation
}

/// What a type (an enum, struct or class, or an extension of one) says that makes it a
/// SwiftData `VersionedSchema` or `SchemaMigrationPlan`; a type may be declared in one file and
/// extended in another, so the reader merges these by name.
struct SchemaTypeRecord: Sendable {
    var name: String
    var location: DataModel.SourceLocation
    /// The type's path, itself last (`["Schemas", "V3"]` for `enum V3` in `enum Schemas`): the
    /// scope its `models` names are looked up in.
    var scope: [String] = []
    /// Conforms to `VersionedSchema` (in its declaration or an extension).
    var isVersionedSchema = false
    /// Conforms to `SchemaMigrationPlan`.
    var isMigrationPlan = false
    /// `static var versionIdentifier = Schema.Version(2, 0, 0)`: the numbers.
    var versionIdentifier: [Int]?
    var versionIdentifierLocation: DataModel.SourceLocation?
    /// `static var models: [any PersistentModel.Type] { [Item.self, SchemaV1.Tag.self] }`: each
    /// entry's type as written.
    var models: [TypePath]?
    /// `static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }`.
    var schemas: [TypePath]?
    /// `static var stages: [MigrationStage] { … }`.
    var stages: StageExpression?
    /// Every other static property whose value reads as stages (`static let migrateV1toV2 =
    /// MigrationStage.lightweight(…)`), by name.
    var stageProperties: [String: StageExpression] = [:]

    /// `record`'s facts added where this one has none (one type declared and extended).
    mutating func merge(_ record: SchemaTypeRecord) {
        if record.scope.count > scope.count { scope = record.scope }
        isVersionedSchema = isVersionedSchema || record.isVersionedSchema
        isMigrationPlan = isMigrationPlan || record.isMigrationPlan
        if versionIdentifier == nil {
            versionIdentifier = record.versionIdentifier
            versionIdentifierLocation = record.versionIdentifierLocation
        }
        models = models ?? record.models
        schemas = schemas ?? record.schemas
        stages = stages ?? record.stages
        stageProperties.merge(record.stageProperties) { first, _ in first }
    }
}

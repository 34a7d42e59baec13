/// A synthetic model planned before it is written: entities, their properties, how they
/// connect. `BlueprintPlanner` makes one; `ContentsWriter` turns it into Xcode's XML.
struct ModelBlueprint {
    var entities: [EntityBlueprint]
    var fetchRequests: [FetchRequestBlueprint]
    var userInfo: [UserInfoEntry]

    /// True when some attribute embeds the `Address` composite, which must then be defined.
    var usesAddressComposite: Bool {
        entities.contains { $0.attributes.contains { $0.type == .composite } }
    }
}

/// The attribute types an Xcode user can pick, by the spelling `contents` uses.
/// `ObjectID` is left out: it exists for expressions only and Xcode's editor never offers it.
enum GeneratedAttributeType: String, CaseIterable, Sendable {
    case undefined = "Undefined"
    case integer16 = "Integer 16"
    case integer32 = "Integer 32"
    case integer64 = "Integer 64"
    case decimal = "Decimal"
    case double = "Double"
    case float = "Float"
    case string = "String"
    case boolean = "Boolean"
    case date = "Date"
    case binary = "Binary"
    case uuid = "UUID"
    case uri = "URI"
    case transformable = "Transformable"
    case composite = "Composite"

    /// What a CloudKit-synced entity may use: CloudKit rejects Undefined, and whether it
    /// accepts composites is undocumented, so synced entities keep to the safe types.
    static let cloudKitSafe: [GeneratedAttributeType] = allCases.filter { $0 != .undefined && $0 != .composite }
}

struct UserInfoEntry {
    var key: String
    var value: String
}

struct EntityBlueprint {
    var name: String
    var parent: Int?
    var isAbstract = false
    /// A member of the CloudKit configuration (else of the local one).
    var syncsWithCloudKit: Bool
    var attributes: [AttributeBlueprint] = []
    var relationships: [RelationshipBlueprint] = []
    var fetchedProperties: [FetchedPropertyBlueprint] = []
    /// Each index lists its attributes, in order.
    var fetchIndexes: [[String]] = []
    /// Each constraint lists its attributes; together they must be unique.
    var uniquenessConstraints: [[String]] = []
    var userInfo: [UserInfoEntry] = []
}

struct AttributeBlueprint {
    var name: String
    var type: GeneratedAttributeType
    var isOptional = true
    var isTransient = false
    var minValue: String?
    var maxValue: String?
    var defaultValue: String?
    var defaultDateTimeInterval: String?
    var usesScalarValueType: Bool?
    var regularExpression: String?
    var allowsExternalBinaryDataStorage = false
    var valueTransformerName: String?
    var customClassName: String?
    var compositeName: String?
    var derivationExpression: String?
    var isSpotlightIndexed = false
    var preservesValueInHistoryOnDeletion = false
    var allowsCloudEncryption = false
    var elementID: String?
    var userInfo: [UserInfoEntry] = []

    /// Stored in the database: neither transient nor derived, so it may be indexed or constrained.
    var isStored: Bool { !isTransient && derivationExpression == nil }
}

struct RelationshipBlueprint {
    enum DeletionRule: String {
        case nullify = "Nullify"
        case cascade = "Cascade"
        case deny = "Deny"
    }

    var name: String
    var destination: Int
    var inverseName: String
    var isToMany: Bool
    var isOptional = true
    var isOrdered = false
    var maxCount: Int?
    var deletionRule: DeletionRule = .nullify
    var userInfo: [UserInfoEntry] = []
}

struct FetchedPropertyBlueprint {
    var name: String
    var destination: Int
    var predicate: String
}

struct FetchRequestBlueprint {
    var name: String
    var entity: Int
    var predicate: String
}

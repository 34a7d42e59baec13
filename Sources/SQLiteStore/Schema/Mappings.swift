import Conformance
import DataModel

/// Where a property lives in an entity's layout. Inherited properties come first, in the
/// ancestors' order, so a property has the same slot in the entity that declares it and in
/// every sub-entity: an object's slot can be used without knowing its exact entity.
enum PropertySlot: Hashable, Sendable {
    case attribute(Int)
    case toOne(Int)
    case toMany(Int)
}

/// One table per entity hierarchy: `Z<ROOT>` with `Z_PK`, `Z_ENT`, `Z_OPT` and the columns of
/// every entity in the hierarchy (sub-entities' own columns are null on other entities' rows).
struct TableMapping: Sendable {
    var name: SQLIdentifier
    /// Index of the hierarchy's root in `StoreSchema.entities`.
    var rootEntity: Int
    /// The property columns, after `Z_PK`, `Z_ENT`, `Z_OPT`.
    var columns: [ColumnMapping]
    /// `Z_PK, Z_ENT, Z_OPT, <columns>`: what a row is read with (`ObjectContext.decode`).
    private(set) var rowColumns = ""
    /// The same, each qualified with `t.`, for joins.
    private(set) var qualifiedRowColumns = ""
    /// `SELECT <row columns> FROM <table> WHERE Z_PK = ?`.
    private(set) var selectByKeySQL = ""

    /// Builds the SQL text every fault and save uses, once the columns are final: SQL is
    /// built per request otherwise, and a million-object cascade makes a million requests.
    mutating func prepareSQL() {
        let names = ["\"Z_PK\"", "\"Z_ENT\"", "\"Z_OPT\""] + columns.map(\.name.quoted)
        rowColumns = names.joined(separator: ", ")
        qualifiedRowColumns = names.map { "t." + $0 }.joined(separator: ", ")
        selectByKeySQL = "SELECT \(rowColumns) FROM \(name.quoted) WHERE \"Z_PK\" = ?"
    }
}

struct ColumnMapping: Sendable {
    var name: SQLIdentifier
    /// The declared type, as Core Data writes it (coredata-semantics §7): INTEGER, VARCHAR, TIMESTAMP, …
    var declaredType: String
}

/// An entity's place in the store: its number, its table and the layout of its properties.
struct EntityMapping: Sendable {
    var name: String
    /// The name the entity had in an earlier model version, which a store migrated from that
    /// version keeps in `Z_PRIMARYKEY.Z_NAME`.
    var renamingIdentifier: String?
    /// Position in `StoreSchema.entities`; `Z_ENT` is this plus one.
    var index: Int
    var parentIndex: Int?
    var tableIndex: Int
    var isAbstract: Bool
    /// Indexes of this entity and all its descendants: contiguous, because entities are
    /// numbered depth first.
    var kinds: ClosedRange<Int>
    var attributes: [AttributeMapping]
    var toOnes: [RelationshipMapping]
    var toManys: [RelationshipMapping]
    /// Every uniqueness constraint that applies: the entity's own and its ancestors'.
    var constraints: [ConstraintMapping]
    var slotsByName: [String: PropertySlot]
    /// The columns an object of this entity writes: stored attributes, then to-ones.
    private(set) var writtenColumns: [(slot: PropertySlot, column: Int)] = []
    /// The to-ones' entity-number columns, written after `writtenColumns`.
    private(set) var entityNumberColumns: [(toOne: Int, column: Int)] = []
    /// `INSERT … (Z_PK, Z_ENT, Z_OPT, <written columns>) VALUES (?, …)`.
    private(set) var insertSQL = ""

    var number: Int { index + 1 }

    mutating func prepareSQL(_ table: TableMapping) {
        writtenColumns = attributes.indices.compactMap { slot in attributes[slot].column.map { (PropertySlot.attribute(slot), $0) } }
            + toOnes.indices.compactMap { slot in column(of: .toOne(slot)).map { (PropertySlot.toOne(slot), $0) } }
        entityNumberColumns = toOnes.indices.compactMap { slot in toOnes[slot].entityColumn.map { (slot, $0) } }
        let names = (writtenColumns.map(\.column) + entityNumberColumns.map(\.column)).map { table.columns[$0].name.quoted }
        let inserted = ["\"Z_PK\"", "\"Z_ENT\"", "\"Z_OPT\""] + names
        insertSQL = "INSERT INTO \(table.name.quoted) (\(inserted.joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: inserted.count).joined(separator: ", ") + ")"
    }

    func relationship(_ slot: PropertySlot) -> RelationshipMapping? {
        switch slot {
        case .toOne(let index): toOnes[index]
        case .toMany(let index): toManys[index]
        case .attribute: nil
        }
    }

    /// The table column of an attribute or a to-one; nil for a transient attribute or a to-many.
    func column(of slot: PropertySlot) -> Int? {
        switch slot {
        case .attribute(let index): return attributes[index].column
        case .toOne(let index):
            guard case .column(let column) = toOnes[index].storage else { return nil }
            return column
        case .toMany: return nil
        }
    }

    /// The entity's relationships with their slots, to-ones first.
    var relationshipSlots: [(slot: PropertySlot, mapping: RelationshipMapping)] {
        toOnes.indices.map { (PropertySlot.toOne($0), toOnes[$0]) }
            + toManys.indices.map { (PropertySlot.toMany($0), toManys[$0]) }
    }
}

struct AttributeMapping: Sendable {
    var attribute: Attribute
    var type: AttributeType
    /// Index into the table's `columns`; nil for a transient attribute, which is never stored.
    var column: Int?
    /// What a new object holds before anything is set (the model's default, or null).
    var defaultValue: AttributeValue

    var name: String { attribute.name }
}

struct RelationshipMapping: Sendable {
    var relationship: Relationship
    /// Index of the destination entity in `StoreSchema.entities`.
    var destination: Int
    /// The inverse's slot in the destination entity, when the two relationships name each
    /// other; nil for a one-way relationship.
    var inverse: PropertySlot?
    var storage: RelationshipStorage
    /// For a to-one whose destination has sub-entities: the `Z<n>_<NAME>` column holding the
    /// destination's entity number, written with the foreign key.
    var entityColumn: Int?

    var name: String { relationship.name }
    var isOrdered: Bool { relationship.isOrdered }
}

/// How a relationship's destinations are written down.
enum RelationshipStorage: Hashable, Sendable {
    /// A to-one: a column of the source's table holding the destination's `Z_PK`.
    case column(Int)
    /// A to-many whose inverse is a to-one: the inverse's column in the destination's table
    /// (and, for an ordered to-many, the `Z_FOK_` column there holding each member's position).
    case inverseColumn(column: Int, orderColumn: Int?)
    /// A many-to-many, or a to-many without an inverse: rows of a join table.
    case joinTable(index: Int, side: JoinSide)
}

/// Which columns of a join table hold "my" primary key and which my destinations'.
enum JoinSide: Hashable, Sendable {
    /// The relationship that named the table: its objects in `ownerColumn`.
    case owner
    /// The inverse of the relationship that named the table: its objects in `memberColumn`.
    case member
}

/// `Z_<entity number><RELATIONSHIP>(owner, member)`: one row per pair of related objects.
struct JoinTableMapping: Sendable {
    var name: SQLIdentifier
    /// The primary key of the object whose relationship named the table.
    var ownerColumn: SQLIdentifier
    /// The primary key of the destination.
    var memberColumn: SQLIdentifier
    /// For an ordered owner relationship: the member's position in the owner's list.
    var ownerOrderColumn: SQLIdentifier?
    /// For an ordered inverse: the owner's position in the member's list.
    var memberOrderColumn: SQLIdentifier?
    /// Table of the owner objects' hierarchy, and of the members'.
    var ownerTable: Int
    var memberTable: Int
    /// True when the relationship is its own inverse (e.g. `Person.friends`): each pair is
    /// then written twice, once from each end, and only the owner columns are read.
    var isSymmetric: Bool

    func ownColumn(_ side: JoinSide) -> SQLIdentifier { side == .owner ? ownerColumn : memberColumn }
    func otherColumn(_ side: JoinSide) -> SQLIdentifier { side == .owner ? memberColumn : ownerColumn }
    func orderColumn(_ side: JoinSide) -> SQLIdentifier? { side == .owner ? ownerOrderColumn : memberOrderColumn }
}

/// A uniqueness constraint as the store checks it: the tuple of `members` is unique across
/// every object of the declaring entity and its sub-entities (coredata-semantics §3).
struct ConstraintMapping: Sendable {
    var declaringEntity: Int
    var kinds: ClosedRange<Int>
    /// Attribute or to-one slots, valid in the declaring entity and every sub-entity.
    var members: [PropertySlot]
}

/// `CREATE [UNIQUE] INDEX name ON table (columns) [WHERE Z_ENT BETWEEN …]`.
struct IndexMapping: Sendable {
    var name: SQLIdentifier
    var table: SQLIdentifier
    var columns: [SQLIdentifier]
    var isUnique: Bool
    /// For a partial index: the `Z_ENT` values it covers.
    var entityNumbers: ClosedRange<Int>?
    /// For a fetch index: what follows each column (`COLLATE BINARY ASC`), as Core Data writes it.
    var columnOrders: [String]? = nil
}

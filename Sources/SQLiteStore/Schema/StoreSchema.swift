import Conformance
import DataModel

/// The SQLite layout of a model, following Core Data's own store where it is public knowledge
/// (coredata-semantics §7): entities numbered from 1, one table per hierarchy, a column per attribute and
/// per to-one, a join table per many-to-many, `Z_FOK_` columns for ordered relationships.
/// `docs/sqlite-store.md` is the written form of this mapping.
///
/// Built once when a store opens; everything afterwards looks up slots and columns by index.
struct StoreSchema: Sendable {
    /// Numbered depth first: roots sorted by name, each followed by its sub-entities (sorted by
    /// name), so an entity and its descendants have contiguous numbers and "kind of X" is a
    /// `Z_ENT BETWEEN` range.
    let entities: [EntityMapping]
    let tables: [TableMapping]
    let joinTables: [JoinTableMapping]
    /// Indexes on foreign-key columns (so propagation finds related rows without a scan) and
    /// the unique indexes of uniqueness constraints.
    let indexes: [IndexMapping]
    private let entityIndexByName: [String: Int]

    func entity(named name: String) -> EntityMapping? {
        entityIndexByName[name].map { entities[$0] }
    }

    init(model: Model) throws(SQLiteStoreError) {
        let order = try Self.numberEntities(model)
        var indexByName: [String: Int] = [:]
        for (index, entity) in order.enumerated() { indexByName[entity.name] = index }
        entityIndexByName = indexByName

        var builder = LayoutBuilder(model: model, order: order, indexByName: indexByName)
        try builder.assignTablesAndColumns()
        try builder.assignJoinTables()
        var tables = builder.tables
        for index in tables.indices { tables[index].prepareSQL() }
        var entities = try builder.entityMappings()
        for index in entities.indices { entities[index].prepareSQL(tables[entities[index].tableIndex]) }
        self.entities = entities
        self.tables = tables
        joinTables = builder.joinTables
        indexes = builder.indexes
    }

    /// The renaming identifier as the loader keeps it: Xcode writes the inspector's "Renaming
    /// ID" as `elementID`, a compiled model calls it `renamingIdentifier`.
    static func renamingID(of entity: Entity) -> String? {
        for value in [entity.renamingIdentifier, entity.elementID] {
            if let value, !value.isEmpty { return value }
        }
        return nil
    }

    /// Entities in store order (see `entities`), after checking that every parent exists and no
    /// hierarchy loops.
    private static func numberEntities(_ model: Model) throws(SQLiteStoreError) -> [Entity] {
        var seen: Set<String> = []
        for entity in model.entities {
            guard seen.insert(entity.name).inserted else {
                throw SQLiteStoreError(.unsupportedModel, "entity '\(entity.name)' is declared twice; rename one")
            }
        }
        for entity in model.entities {
            if let parent = entity.parentEntityName, model.entity(named: parent) == nil {
                throw SQLiteStoreError(.unsupportedModel,
                                       "entity '\(entity.name)' has parent '\(parent)', which the model does not declare")
            }
            if model.hasInheritanceCycle(entity) {
                throw SQLiteStoreError(.unsupportedModel, "entity '\(entity.name)' inherits from itself; break the parent cycle")
            }
        }
        var order: [Entity] = []
        // Depth first without recursion: a stack of entities still to number.
        var stack = model.entities.filter { $0.parentEntityName == nil }.sorted { $0.name > $1.name }
        while let next = stack.popLast() {
            order.append(next)
            stack.append(contentsOf: model.subentities(of: next).sorted { $0.name > $1.name })
        }
        return order
    }
}

/// The steps that turn a model into mappings; kept apart so `StoreSchema` reads as its result.
private struct LayoutBuilder {
    let model: Model
    let order: [Entity]
    let indexByName: [String: Int]

    var tables: [TableMapping] = []
    var joinTables: [JoinTableMapping] = []
    var indexes: [IndexMapping] = []
    /// Table of each entity (by store index).
    var tableOfEntity: [Int] = []
    /// Column index of each stored attribute and to-one, by (entity index, property name).
    var columnOf: [PropertyKey: Int] = [:]
    /// `Z_FOK_` column of a to-one whose inverse is an ordered to-many.
    var orderColumnOf: [PropertyKey: Int] = [:]
    /// The `Z<n>_<NAME>` column holding a to-one destination's entity number, when the
    /// destination entity has sub-entities.
    var entityColumnOf: [PropertyKey: Int] = [:]
    /// Join table and side of each to-many stored in one.
    var joinOf: [PropertyKey: (index: Int, side: JoinSide)] = [:]
    /// Table and index names share one namespace in SQLite.
    var globalNames = IdentifierAllocator(reserved: ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"])

    struct PropertyKey: Hashable {
        var entity: Int
        var name: String
    }

    func storeIndex(_ entity: Entity) -> Int { indexByName[entity.name]! }

    func rootIndex(_ entity: Entity) -> Int { storeIndex(model.root(of: entity)) }

    /// The relationship's inverse when the two name each other and each is declared on the
    /// other's destination entity; anything less is treated as one-way, because maintaining a
    /// lopsided inverse would corrupt the other side.
    func mutualInverse(of relationship: Relationship, declaredOn entity: Entity) -> Relationship? {
        guard let name = relationship.inverseName,
              let destination = relationship.destinationEntityName.flatMap(model.entity(named:)),
              let inverse = model.ownProperty(named: name, in: destination)?.asRelationship,
              inverse.inverseName == relationship.name,
              inverse.destinationEntityName == entity.name
        else { return nil }
        return inverse
    }

    mutating func assignTablesAndColumns() throws(SQLiteStoreError) {
        var allocators: [IdentifierAllocator] = []
        for entity in order {
            if entity.parentEntityName == nil {
                tables.append(TableMapping(name: globalNames.claim("Z" + entity.name.uppercased()),
                                           rootEntity: storeIndex(entity), columns: []))
                allocators.append(IdentifierAllocator(reserved: ["Z_PK", "Z_ENT", "Z_OPT"]))
                // A table shared by a hierarchy is read by entity: `ZNOTE_Z_ENT_INDEX`, as
                // Core Data names it.
                if !model.allSubentities(of: entity).isEmpty {
                    let table = tables[tables.count - 1].name
                    indexes.append(IndexMapping(name: globalNames.claim(table.name + "_Z_ENT_INDEX"), table: table,
                                                columns: [SQLIdentifier("Z_ENT")], isUnique: false, entityNumbers: nil))
                }
            }
            let table = tables.firstIndex { $0.rootEntity == rootIndex(entity) }!
            tableOfEntity.append(table)
            let index = storeIndex(entity)
            for attribute in entity.attributes where !attribute.isTransient {
                let name = allocators[table].claim("Z" + attribute.name.uppercased())
                columnOf[PropertyKey(entity: index, name: attribute.name)] = tables[table].columns.count
                tables[table].columns.append(ColumnMapping(name: name, declaredType: Self.declaredType(of: attribute)))
            }
            for relationship in entity.relationships {
                if relationship.isTransient {
                    throw SQLiteStoreError(.unsupportedModel,
                                           "'\(entity.name).\(relationship.name)' is a transient relationship, which the sqlite store does not support; make it persistent")
                }
                guard let destination = relationship.destinationEntityName, model.entity(named: destination) != nil else {
                    throw SQLiteStoreError(.unsupportedModel,
                                           "'\(entity.name).\(relationship.name)' has no destination entity the model declares")
                }
                guard !relationship.isToMany else { continue }
                let name = allocators[table].claim("Z" + relationship.name.uppercased())
                columnOf[PropertyKey(entity: index, name: relationship.name)] = tables[table].columns.count
                tables[table].columns.append(ColumnMapping(name: name, declaredType: "INTEGER"))
                // A destination with sub-entities shares its table with them, so Core Data
                // also records which entity the destination row is: `ZPAGE.Z1_BOOK`, named
                // for the destination's entity number (docs/sqlite-store.md; INFERRED from
                // that one observation).
                let target = model.entity(named: destination)!
                if !model.allSubentities(of: target).isEmpty {
                    let entityColumn = allocators[table].claim("Z\(storeIndex(target) + 1)_" + relationship.name.uppercased())
                    entityColumnOf[PropertyKey(entity: index, name: relationship.name)] = tables[table].columns.count
                    tables[table].columns.append(ColumnMapping(name: entityColumn, declaredType: "INTEGER"))
                }
                // Core Data's name: `ZTODOITEM_ZPROJECT_INDEX ON ZTODOITEM (ZPROJECT)`.
                indexes.append(IndexMapping(
                    name: globalNames.claim("\(tables[table].name.name)_\(name.name)_INDEX"),
                    table: tables[table].name, columns: [name], isUnique: false, entityNumbers: nil))
                if let inverse = mutualInverse(of: relationship, declaredOn: entity), inverse.isToMany, inverse.isOrdered {
                    let order = allocators[table].claim("Z_FOK_" + relationship.name.uppercased())
                    orderColumnOf[PropertyKey(entity: index, name: relationship.name)] = tables[table].columns.count
                    tables[table].columns.append(ColumnMapping(name: order, declaredType: "INTEGER"))
                }
            }
        }
    }

    /// A join table for every to-many whose inverse is not a to-one: many-to-manys (one table
    /// per pair, named from the side met first in store order) and to-manys
    /// without an inverse. Core Data keeps the latter in a hidden column of the destination,
    /// which lets a destination belong to one source only; a join table keeps the set semantics
    /// the contract asks for.
    mutating func assignJoinTables() throws(SQLiteStoreError) {
        for entity in order {
            let a = storeIndex(entity)
            for relationship in entity.relationships where relationship.isToMany {
                let key = PropertyKey(entity: a, name: relationship.name)
                guard joinOf[key] == nil else { continue }
                let destination = model.entity(named: relationship.destinationEntityName!)!
                let inverse = mutualInverse(of: relationship, declaredOn: entity)
                if let inverse, !inverse.isToMany { continue }
                if let inverse, !namesJoinTable(relationship, of: a, inverse: inverse, of: storeIndex(destination)) { continue }
                var columns = IdentifierAllocator()
                let tableName = globalNames.claim("Z_\(a + 1)\(relationship.name.uppercased())")
                let ownerTable = tableOfEntity[a]
                let memberTable = tableOfEntity[storeIndex(destination)]
                let b = storeIndex(destination)
                let symmetric = inverse.map { b == a && $0.name == relationship.name } ?? false
                // The owner column is named for the relationship pointing back at the owner;
                // without an inverse there is none, hence OWNER.
                let owner = columns.claim("Z_\(a + 1)" + (inverse?.name.uppercased() ?? "OWNER"))
                let member = columns.claim("Z_\(b + 1)\(relationship.name.uppercased())")
                let ownerOrder = relationship.isOrdered ? columns.claim("Z_FOK_\(b + 1)\(relationship.name.uppercased())") : nil
                let memberOrder = inverse.flatMap { $0.isOrdered && !symmetric ? columns.claim("Z_FOK_\(a + 1)\($0.name.uppercased())") : nil }
                joinTables.append(JoinTableMapping(
                    name: tableName, ownerColumn: owner, memberColumn: member,
                    ownerOrderColumn: ownerOrder, memberOrderColumn: memberOrder,
                    ownerTable: ownerTable, memberTable: memberTable, isSymmetric: symmetric))
                joinOf[key] = (joinTables.count - 1, .owner)
                if let inverse, !symmetric { joinOf[PropertyKey(entity: b, name: inverse.name)] = (joinTables.count - 1, .member) }
                indexMemberColumn(of: joinTables[joinTables.count - 1])
            }
        }
    }

    /// Which side of a many-to-many names its join table. Observed in stores Core Data wrote
    /// (docs/sqlite-store.md): `Author.books`/`Book.authors` → `Z_1BOOKS`, and
    /// `TodoItem.blockedBy`/`TodoItem.blocking` → `Z_2BLOCKING`; with `Album.assets`/
    /// `Asset.albums` → `Z_26ASSETS` (docs/coredata-semantics.md §7) all three fit "the
    /// relationship whose upper-cased name sorts last". INFERRED: the tie (same names) goes to
    /// the lower entity number.
    private func namesJoinTable(_ relationship: Relationship, of entity: Int, inverse: Relationship, of other: Int) -> Bool {
        let mine = relationship.name.uppercased(), theirs = inverse.name.uppercased()
        return mine != theirs ? mine > theirs : entity <= other
    }

    /// The primary key (owner, member) serves lookups by owner; this serves lookups by member.
    /// Named and ordered as Core Data's: `Z_1BOOKS_Z_2BOOKS_INDEX ON Z_1BOOKS (Z_2BOOKS, Z_1AUTHORS)`.
    private mutating func indexMemberColumn(of join: JoinTableMapping) {
        indexes.append(IndexMapping(name: globalNames.claim(join.name.name + "_" + join.memberColumn.name + "_INDEX"),
                                    table: join.name, columns: [join.memberColumn, join.ownerColumn], isUnique: false, entityNumbers: nil))
    }

    mutating func entityMappings() throws(SQLiteStoreError) -> [EntityMapping] {
        var mappings: [EntityMapping] = []
        for entity in order {
            let index = storeIndex(entity)
            let parent = entity.parentEntityName.flatMap { indexByName[$0] }
            let descendants = model.allSubentities(of: entity).map(storeIndex)
            var mapping = EntityMapping(
                name: entity.name, renamingIdentifier: StoreSchema.renamingID(of: entity), index: index, parentIndex: parent, tableIndex: tableOfEntity[index],
                isAbstract: entity.isAbstract, kinds: index...(descendants.max() ?? index),
                attributes: parent.map { mappings[$0].attributes } ?? [],
                toOnes: parent.map { mappings[$0].toOnes } ?? [],
                toManys: parent.map { mappings[$0].toManys } ?? [],
                constraints: parent.map { mappings[$0].constraints } ?? [],
                slotsByName: parent.map { mappings[$0].slotsByName } ?? [:])
            for attribute in entity.attributes {
                mapping.slotsByName[attribute.name] = .attribute(mapping.attributes.count)
                mapping.attributes.append(try attributeMapping(attribute, of: entity, index: index))
            }
            // Inverse slots are filled in below, once every entity's layout is known.
            for relationship in entity.relationships {
                let key = PropertyKey(entity: index, name: relationship.name)
                let destination = indexByName[relationship.destinationEntityName!]!
                if relationship.isToMany {
                    let storage: RelationshipStorage
                    if let join = joinOf[key] {
                        storage = .joinTable(index: join.index, side: join.side)
                    } else {
                        let inverse = mutualInverse(of: relationship, declaredOn: entity)!
                        let inverseKey = PropertyKey(entity: destination, name: inverse.name)
                        storage = .inverseColumn(column: columnOf[inverseKey]!, orderColumn: orderColumnOf[inverseKey])
                    }
                    mapping.slotsByName[relationship.name] = .toMany(mapping.toManys.count)
                    mapping.toManys.append(RelationshipMapping(relationship: relationship, destination: destination,
                                                               inverse: nil, storage: storage))
                } else {
                    mapping.slotsByName[relationship.name] = .toOne(mapping.toOnes.count)
                    mapping.toOnes.append(RelationshipMapping(relationship: relationship, destination: destination,
                                                              inverse: nil, storage: .column(columnOf[key]!),
                                                              entityColumn: entityColumnOf[key]))
                }
            }
            for constraint in entity.uniquenessConstraints {
                mapping.constraints.append(try constraintMapping(constraint, of: entity, layout: mapping))
            }
            for fetchIndex in entity.fetchIndexes {
                addFetchIndex(fetchIndex, of: entity, layout: mapping)
            }
            mappings.append(mapping)
        }
        // Inverses: the inverse's slot in the destination entity (valid in its sub-entities too).
        for index in mappings.indices {
            for slot in mappings[index].toOnes.indices {
                mappings[index].toOnes[slot].inverse = inverseSlot(of: mappings[index].toOnes[slot], in: mappings)
            }
            for slot in mappings[index].toManys.indices {
                mappings[index].toManys[slot].inverse = inverseSlot(of: mappings[index].toManys[slot], in: mappings)
            }
        }
        return mappings
    }

    private func inverseSlot(of mapping: RelationshipMapping, in mappings: [EntityMapping]) -> PropertySlot? {
        // Inherited relationships were copied from the parent; the declaring entity is the one
        // the relationship's own declaration sits on.
        let declarer = order.first { $0.relationships.contains(mapping.relationship) }!
        guard let inverse = mutualInverse(of: mapping.relationship, declaredOn: declarer) else { return nil }
        return mappings[mapping.destination].slotsByName[inverse.name]
    }

    private func attributeMapping(_ attribute: Attribute, of entity: Entity, index: Int) throws(SQLiteStoreError) -> AttributeMapping {
        guard let type = attribute.attributeType else {
            throw SQLiteStoreError(.unsupportedModel, "'\(entity.name).\(attribute.name)' has no attributeType; give it one")
        }
        let defaultValue: AttributeValue
        do {
            defaultValue = try DefaultValue.parse(attribute, type: type)
        } catch {
            throw SQLiteStoreError(.unsupportedModel, "'\(entity.name).\(attribute.name)' has a default value that \(error.description)")
        }
        return AttributeMapping(attribute: attribute, type: type,
                                column: columnOf[PropertyKey(entity: index, name: attribute.name)],
                                defaultValue: defaultValue)
    }

    private mutating func constraintMapping(_ constraint: UniquenessConstraint, of entity: Entity,
                                            layout: EntityMapping) throws(SQLiteStoreError) -> ConstraintMapping {
        var members: [PropertySlot] = []
        for name in constraint.propertyNames {
            switch layout.slotsByName[name] {
            case .attribute(let slot)? where layout.attributes[slot].column != nil:
                members.append(.attribute(slot))
            case .toOne(let slot)?:
                members.append(.toOne(slot))
            case .toMany?:
                throw SQLiteStoreError(.unsupportedModel,
                                       "the uniqueness constraint of '\(entity.name)' names the to-many '\(name)'; constrain attributes or to-ones only")
            case .attribute?:
                throw SQLiteStoreError(.unsupportedModel,
                                       "the uniqueness constraint of '\(entity.name)' names the transient '\(name)'; constrain stored attributes only")
            case nil:
                throw SQLiteStoreError(.unsupportedModel,
                                       "the uniqueness constraint of '\(entity.name)' names '\(name)', which '\(entity.name)' does not have")
            }
        }
        let indexName = globalNames.claim("Z_\(entity.name.uppercased())_UNIQUE_" + constraint.propertyNames.map { $0.uppercased() }.joined(separator: "_"))
        let table = tables[tableOfEntity[layout.index]]
        let columns = members.map { table.columns[layout.column(of: $0)!].name }
        // Partial, so that rows of entities outside the constraining hierarchy (siblings and
        // ancestors sharing the table) are not constrained with it.
        indexes.append(IndexMapping(name: indexName, table: table.name, columns: columns, isUnique: true,
                                    entityNumbers: (layout.kinds.lowerBound + 1)...(layout.kinds.upperBound + 1)))
        return ConstraintMapping(declaringEntity: layout.index, kinds: layout.kinds, members: members)
    }

    /// A fetch index as Core Data names and writes it, as a public project's tests record:
    /// `CREATE INDEX Z_Note_byTitle ON ZNOTE (ZTITLE COLLATE BINARY ASC)` — `Z_`, the entity's
    /// name as written, the index's name. An index with an R-tree element, or naming a
    /// property without a column, is left out: Core Data keeps R-trees in a virtual table,
    /// which momlint does not make.
    private mutating func addFetchIndex(_ fetchIndex: FetchIndex, of entity: Entity, layout: EntityMapping) {
        let table = tables[tableOfEntity[layout.index]]
        var columns: [SQLIdentifier] = [], orders: [String] = []
        for element in fetchIndex.elements {
            guard element.type.map({ $0.lowercased() == "binary" }) ?? true,
                  let slot = layout.slotsByName[element.property], let column = layout.column(of: slot)
            else { return }
            columns.append(table.columns[column].name)
            orders.append("COLLATE BINARY " + (element.order?.lowercased() == "descending" ? "DESC" : "ASC"))
        }
        guard !columns.isEmpty else { return }
        indexes.append(IndexMapping(name: globalNames.claim("Z_\(entity.name)_\(fetchIndex.name)"), table: table.name,
                                    columns: columns, isUnique: false, entityNumbers: nil, columnOrders: orders))
    }

    /// Column types as Core Data declares them (docs/coredata-semantics.md §7, INFERRED).
    static func declaredType(of attribute: Attribute) -> String {
        switch attribute.attributeType {
        case .integer16?, .integer32?, .integer64?, .boolean?: "INTEGER"
        case .string?, .uri?: "VARCHAR"
        case .date?: "TIMESTAMP"
        case .double?, .float?: "FLOAT"
        case .decimal?: "DECIMAL"
        default: "BLOB"
        }
    }
}

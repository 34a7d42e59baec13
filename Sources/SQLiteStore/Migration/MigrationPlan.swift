import DataModel
import Foundation
import GRDB
import ModelDiff

/// The SQL statements that migrate a store in place from one model version's layout to
/// another's, following an `InferredMapping` (docs/sqlite-store.md, "Migration").
///
/// Rows keep their `Z_PK` (lightweight migration never merges two hierarchies, so a table's
/// rows come from one table), which keeps every foreign key valid; `Z_ENT` values are
/// renumbered. A table whose columns all survive under their names is changed in place
/// (`ALTER TABLE … ADD COLUMN`, one `UPDATE`, a `DELETE` of rows whose entity is gone); any
/// other is rebuilt: created under a temporary name, filled by `INSERT … SELECT`, the old one
/// dropped and the new one renamed. Links whose storage changes (a to-one becoming a
/// many-to-many, a new inverse, numbering that renames a join table) are read into temporary
/// tables first and written to the new storage afterwards. The caller runs `run(_:)`
/// (`MigrationPlan+Running.swift`) inside one transaction.
struct MigrationPlan {
    let source: StoreSchema
    let destination: StoreSchema
    let mapping: InferredMapping
    let destinationModel: Model
    let file: StoreFileDescription
    /// Destination entity index → the source entity index whose rows it takes.
    private var sourceOf: [Int?]
    /// Source entity index → the destination entity index its rows become (nil: dropped).
    private var destinationOf: [Int?]
    private(set) var tablePlans: [TablePlan] = []
    /// `SELECT s, d, fo, io` statements, read before anything changes (see `LinkSet`).
    private(set) var linkSets: [String] = []
    private(set) var work: [RelationshipWork] = []
    /// Source join tables that keep their rows in place.
    private(set) var keptJoinTables: Set<Int> = []

    struct TablePlan {
        var table: Int
        var sourceTable: Int?
        var inPlace: Bool
        /// Per destination column: its value as an SQL expression over the source row (nil:
        /// null), and whether that is the same-named source column unchanged.
        var columns: [(expression: String?, identity: Bool)]
        /// Old → new entity numbers of the rows the table keeps.
        var entityNumbers: [(old: Int, new: Int)]
    }

    /// What happens to a relationship's stored links after the tables are in place.
    enum RelationshipWork {
        /// A to-one's column, filled from a link set (its links were stored elsewhere).
        case foreignKey(entity: Int, toOne: Int, links: Int)
        /// The `Z_FOK_` position column of a to-one whose inverse is ordered, numbered from the
        /// link set's inverse positions (or by key when there are none).
        case positions(entity: Int, foreignKey: Int, column: Int, links: Int?)
        /// A to-one's destination entity number column, read from the destination's row.
        case entityNumber(entity: Int, foreignKey: Int, column: Int, destination: Int)
        /// A join table, created and filled from a link set (nil: created empty).
        case joinTable(index: Int, links: Int?)
        /// A join table kept in place: rows whose objects are gone are deleted.
        case keepJoinTable(index: Int)
    }

    init(source: StoreSchema, destination: StoreSchema, mapping: InferredMapping, destinationModel: Model,
         file: StoreFileDescription) throws(StoreMigrationError) {
        self.source = source
        self.destination = destination
        self.mapping = mapping
        self.destinationModel = destinationModel
        self.file = file
        sourceOf = Array(repeating: nil, count: destination.entities.count)
        destinationOf = Array(repeating: nil, count: source.entities.count)
        for entityMapping in mapping.entities {
            guard let target = destination.entity(named: entityMapping.destinationEntity),
                  let name = entityMapping.sourceEntity, let origin = source.entity(named: name) else { continue }
            sourceOf[target.index] = origin.index
            // An entity made abstract has no instances: its rows have nowhere to go.
            if !target.isAbstract { destinationOf[origin.index] = target.index }
        }
        tablePlans = try destination.tables.indices.map { table throws(StoreMigrationError) in try planTable(table) }
        planRelationships()
    }

    // MARK: Tables

    private func planTable(_ table: Int) throws(StoreMigrationError) -> TablePlan {
        let rows = destinationOf.enumerated().compactMap { old, new -> (old: Int, new: Int)? in
            guard let new, destination.entities[new].tableIndex == table else { return nil }
            return (old, new)
        }
        let sourceTables = Set(rows.map { source.entities[$0.old].tableIndex })
        if sourceTables.count > 1 {
            let roots = sourceTables.sorted().map { "'\(source.entities[source.tables[$0].rootEntity].name)'" }
            throw StoreMigrationError(.missingMappingModel,
                                      "migrating would merge the rows of \(roots.joined(separator: " and ")) into one table \(destination.tables[table].name.name); lightweight migration does not merge entity hierarchies")
        }
        // A new hierarchy with no rows yet keeps its table if the source had one of that name.
        let sourceTable = sourceTables.first
        let columns = destination.tables[table].columns.indices.map { column in
            sourceTable.map { fill(column: column, of: table, from: $0) } ?? (nil, false)
        }
        var inPlace = false
        if let sourceTable, source.tables[sourceTable].name == destination.tables[table].name {
            let kept = Dictionary(destination.tables[table].columns.map { ($0.name.name.uppercased(), $0.declaredType) },
                                  uniquingKeysWith: { first, _ in first })
            inPlace = source.tables[sourceTable].columns.allSatisfy { kept[$0.name.name.uppercased()] == $0.declaredType }
        }
        return TablePlan(table: table, sourceTable: sourceTable, inPlace: inPlace, columns: columns,
                         entityNumbers: rows.map { (source.entities[$0.old].number, destination.entities[$0.new].number) })
    }

    /// One source row's contribution to a destination column: the SQL for its value, and the
    /// source column when the value is that column unchanged.
    private struct Contribution {
        var entityNumber: Int
        var sql: String?
        var plainColumn: Int?
    }

    /// The value of a destination column as an SQL expression over the source table's row.
    private func fill(column: Int, of table: Int, from sourceTable: Int) -> (expression: String?, identity: Bool) {
        var contributions: [Contribution] = []
        var contributors = Set<Int>()
        for target in destination.entities where target.tableIndex == table && !target.isAbstract {
            guard let originIndex = sourceOf[target.index], destinationOf[originIndex] == target.index else { continue }
            let origin = source.entities[originIndex]
            let entityMapping = mapping.entity(named: target.name)
            if let contribution = contribution(to: column, target: target, origin: origin, entityMapping: entityMapping) {
                contributions.append(contribution)
                contributors.insert(originIndex)
            }
        }
        let valued = contributions.filter { $0.sql != nil }
        guard let first = valued.first else { return (nil, false) }
        let columns = source.tables[sourceTable].columns
        // One plain column for every row that has the destination column, and no row of
        // another entity carrying values in it: copied as it is.
        if let plain = first.plainColumn, valued.count == contributions.count,
           valued.allSatisfy({ $0.plainColumn == plain }) {
            let othersUseIt = source.entities.contains { other in
                other.tableIndex == sourceTable && !contributors.contains(other.index)
                    && destinationOf[other.index].map { destination.entities[$0].tableIndex == table } == true
                    && usedColumns(of: other).contains(plain)
            }
            if !othersUseIt {
                let name = columns[plain].name
                return (name.quoted, name.name.uppercased() == destination.tables[table].columns[column].name.name.uppercased())
            }
        }
        // The same value for every row the table keeps (a new attribute's default): no CASE.
        let keptRows = destinationOf.indices.filter { old in
            destinationOf[old].map { destination.entities[$0].tableIndex == table } == true
        }
        if valued.count == contributions.count, Set(keptRows) == contributors,
           valued.allSatisfy({ $0.sql == first.sql }), first.plainColumn == nil {
            return (first.sql, false)
        }
        let cases = valued.map { "WHEN \($0.entityNumber) THEN \($0.sql!)" }.joined(separator: " ")
        return ("CASE \"Z_ENT\" \(cases) END", false)
    }

    private func contribution(to column: Int, target: EntityMapping, origin: EntityMapping,
                              entityMapping: ModelDiff.EntityMapping?) -> Contribution? {
        let sourceColumns = source.tables[origin.tableIndex].columns
        func sourceSlot(_ name: String) -> PropertySlot? {
            entityMapping?.property(named: name)?.sourceProperty.flatMap { origin.slotsByName[$0] }
        }
        for attribute in target.attributes where attribute.column == column {
            var plain: Int?
            var numeric: NumericTypeChange?
            if case .attribute(let slot)? = sourceSlot(attribute.name) {
                plain = origin.attributes[slot].column
                numeric = NumericTypeChange(from: origin.attributes[slot].type, to: attribute.type)
            }
            let fallback = Self.literal(StoredValue.databaseValue(attribute.defaultValue))
            guard let plain else { return Contribution(entityNumber: origin.number, sql: fallback, plainColumn: nil) }
            var stored = sourceColumns[plain].name.quoted
            // A numeric type change converts the values (observed: a stored 1 reads back as 1.0
            // after Integer 64 → Double; docs/coredata-semantics.md §8). To an integer type a
            // fraction is truncated toward zero (CAST, inferred); between integer types the
            // column's values stay as they are.
            if let numeric, numeric.to.isInteger != numeric.from.isInteger {
                stored = "CAST(\(stored) AS \(numeric.to.isInteger ? "INTEGER" : "REAL"))"
                if let fallback, !attribute.attribute.isOptional {
                    return Contribution(entityNumber: origin.number, sql: "COALESCE(\(stored), \(fallback))", plainColumn: nil)
                }
                return Contribution(entityNumber: origin.number, sql: stored, plainColumn: nil)
            }
            // "An optional attribute becoming non-optional, and defining a default value": the
            // rows without a value take the default (docs/coredata-semantics.md §8).
            if let fallback, !attribute.attribute.isOptional {
                return Contribution(entityNumber: origin.number, sql: "COALESCE(\(stored), \(fallback))", plainColumn: nil)
            }
            return Contribution(entityNumber: origin.number, sql: stored, plainColumn: plain)
        }
        for slot in target.toOnes.indices {
            let toOne = target.toOnes[slot]
            let foreignKey = target.column(of: .toOne(slot))
            let orderColumn = destination.orderColumn(ofToOne: slot, in: target)
            guard foreignKey == column || toOne.entityColumn == column || orderColumn == column else { continue }
            guard case .toOne(let sourceIndex)? = sourceSlot(toOne.name),
                  let sourceForeignKey = origin.column(of: .toOne(sourceIndex))
            else { return Contribution(entityNumber: origin.number, sql: nil, plainColumn: nil) }
            let copied: Int?
            if foreignKey == column {
                copied = sourceForeignKey
            } else if toOne.entityColumn == column {
                // Kept only under the same name: the name carries the destination's number.
                copied = origin.toOnes[sourceIndex].entityColumn.flatMap { candidate in
                    sourceColumns[candidate].name.name.uppercased()
                        == destination.tables[target.tableIndex].columns[column].name.name.uppercased() ? candidate : nil
                }
            } else {
                copied = source.orderColumn(ofToOne: sourceIndex, in: origin)
            }
            return Contribution(entityNumber: origin.number, sql: copied.map { sourceColumns[$0].name.quoted },
                                plainColumn: copied)
        }
        return nil
    }

    /// Every column a source entity's rows may hold a value in.
    private func usedColumns(of entity: EntityMapping) -> Set<Int> {
        var columns = Set(entity.attributes.compactMap(\.column))
        for slot in entity.toOnes.indices {
            if let column = entity.column(of: .toOne(slot)) { columns.insert(column) }
            if let column = entity.toOnes[slot].entityColumn { columns.insert(column) }
            if let column = source.orderColumn(ofToOne: slot, in: entity) { columns.insert(column) }
        }
        return columns
    }

    // MARK: Relationships

    /// The source relationship whose links a destination relationship of `entity` takes.
    private func sourceRelationship(of entity: EntityMapping, named name: String) -> (EntityMapping, PropertySlot)? {
        guard let originIndex = sourceOf[entity.index],
              let sourceName = mapping.entity(named: entity.name)?.property(named: name)?.sourceProperty
        else { return nil }
        let origin = source.entities[originIndex]
        guard let slot = origin.slotsByName[sourceName], origin.relationship(slot) != nil else { return nil }
        return (origin, slot)
    }

    /// `SELECT s, d, fo, io`: each stored link of a source relationship as (object, destination,
    /// the destination's position in the object's list, the object's position in the
    /// destination's list).
    private func linkSelect(_ entity: EntityMapping, _ slot: PropertySlot) -> String? {
        switch slot {
        case .attribute:
            return nil
        case .toOne(let index):
            guard let column = entity.column(of: slot) else { return nil }
            let table = source.tables[entity.tableIndex]
            let columnName = table.columns[column].name.quoted
            let position = source.orderColumn(ofToOne: index, in: entity).map { table.columns[$0].name.quoted } ?? "NULL"
            return "SELECT \"Z_PK\" AS s, \(columnName) AS d, NULL AS fo, \(position) AS io FROM \(table.name.quoted) WHERE \(columnName) IS NOT NULL AND \"Z_ENT\" BETWEEN \(entity.kinds.lowerBound + 1) AND \(entity.kinds.upperBound + 1)"
        case .toMany(let index):
            let toMany = entity.toManys[index]
            switch toMany.storage {
            case .column:
                return nil
            case .inverseColumn(let column, let orderColumn):
                let target = source.entities[toMany.destination]
                let table = source.tables[target.tableIndex]
                let columnName = table.columns[column].name.quoted
                let position = orderColumn.map { table.columns[$0].name.quoted } ?? "NULL"
                return "SELECT \(columnName) AS s, \"Z_PK\" AS d, \(position) AS fo, NULL AS io FROM \(table.name.quoted) WHERE \(columnName) IS NOT NULL AND \"Z_ENT\" BETWEEN \(target.kinds.lowerBound + 1) AND \(target.kinds.upperBound + 1)"
            case .joinTable(let join, let side):
                let table = source.joinTables[join]
                let otherSide: JoinSide = side == .owner ? .member : .owner
                let position = table.orderColumn(side)?.quoted ?? "NULL"
                let inversePosition = table.isSymmetric ? "NULL" : (table.orderColumn(otherSide)?.quoted ?? "NULL")
                return "SELECT \(table.ownColumn(side).quoted) AS s, \(table.otherColumn(side).quoted) AS d, \(position) AS fo, \(inversePosition) AS io FROM \(table.name.quoted)"
            }
        }
    }

    /// The links a destination relationship takes: its own source relationship's, or else those
    /// of its inverse's source, seen from the other end.
    private func links(of entity: EntityMapping, _ slot: PropertySlot) -> String? {
        let relationship = entity.relationship(slot)!
        if let direct = sourceRelationship(of: entity, named: relationship.name) {
            return linkSelect(direct.0, direct.1)
        }
        guard let inverseSlot = relationship.inverse else { return nil }
        let target = destination.entities[relationship.destination]
        guard let inverse = target.relationship(inverseSlot),
              let found = sourceRelationship(of: target, named: inverse.name),
              let select = linkSelect(found.0, found.1)
        else { return nil }
        return "SELECT d AS s, s AS d, io AS fo, fo AS io FROM (\(select))"
    }

    private mutating func addLinks(_ select: String?) -> Int? {
        guard let select else { return nil }
        linkSets.append(select)
        return linkSets.count - 1
    }

    /// Only a relationship's declaring entity plans it (sub-entities share its storage).
    private func declares(_ entity: EntityMapping, _ name: String) -> Bool {
        destinationModel.entity(named: entity.name)?.relationships.contains { $0.name == name } ?? false
    }

    private mutating func planRelationships() {
        var plannedJoins = Set<Int>()
        for entity in destination.entities {
            for slot in entity.toOnes.indices where declares(entity, entity.toOnes[slot].name) {
                let toOne = entity.toOnes[slot]
                guard let foreignKey = entity.column(of: .toOne(slot)) else { continue }
                let direct = sourceRelationship(of: entity, named: toOne.name)
                var directColumn = false
                var directPositions = false
                if let direct, case .toOne(let index) = direct.1 {
                    directColumn = direct.0.column(of: direct.1) != nil
                    directPositions = source.orderColumn(ofToOne: index, in: direct.0) != nil
                }
                var linkSet: Int?
                if !directColumn, let select = links(of: entity, .toOne(slot)) {
                    linkSet = addLinks(select)
                    work.append(.foreignKey(entity: entity.index, toOne: slot, links: linkSet!))
                }
                if let orderColumn = destination.orderColumn(ofToOne: slot, in: entity), !directPositions {
                    work.append(.positions(entity: entity.index, foreignKey: foreignKey, column: orderColumn, links: linkSet))
                }
                if let entityColumn = toOne.entityColumn {
                    work.append(.entityNumber(entity: entity.index, foreignKey: foreignKey, column: entityColumn,
                                              destination: toOne.destination))
                }
            }
            for slot in entity.toManys.indices {
                guard case .joinTable(let join, let side) = entity.toManys[slot].storage, side == .owner,
                      plannedJoins.insert(join).inserted else { continue }
                if let direct = sourceRelationship(of: entity, named: entity.toManys[slot].name),
                   case .toMany(let index) = direct.1,
                   case .joinTable(let sourceJoin, .owner) = direct.0.toManys[index].storage,
                   Self.sameLayout(source.joinTables[sourceJoin], destination.joinTables[join]) {
                    keptJoinTables.insert(sourceJoin)
                    work.append(.keepJoinTable(index: join))
                    continue
                }
                work.append(.joinTable(index: join, links: addLinks(links(of: entity, .toMany(slot)))))
            }
        }
    }

    private static func sameLayout(_ a: JoinTableMapping, _ b: JoinTableMapping) -> Bool {
        a.name == b.name && a.ownerColumn == b.ownerColumn && a.memberColumn == b.memberColumn
            && a.ownerOrderColumn == b.ownerOrderColumn && a.memberOrderColumn == b.memberOrderColumn
            && a.isSymmetric == b.isSymmetric
    }

    /// An SQL literal for a stored value (nil for null).
    static func literal(_ value: DatabaseValue) -> String? {
        switch value.storage {
        case .null: return nil
        case .int64(let number): return String(number)
        case .double(let number):
            if number.isNaN { return nil }
            if number.isInfinite { return number < 0 ? "-9e999" : "9e999" }
            return "\(number)"
        case .string(let text): return "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
        case .blob(let bytes): return "X'" + bytes.map { String(format: "%02X", $0) }.joined() + "'"
        }
    }
}

extension StoreSchema {
    /// The `Z_FOK_` column of a to-one whose inverse is an ordered to-many: the object's
    /// position in its destination's list.
    func orderColumn(ofToOne slot: Int, in entity: EntityMapping) -> Int? {
        let toOne = entity.toOnes[slot]
        guard case .toMany(let inverse)? = toOne.inverse, case .column(let own) = toOne.storage,
              case .inverseColumn(let column, let order) = entities[toOne.destination].toManys[inverse].storage,
              column == own else { return nil }
        return order
    }
}

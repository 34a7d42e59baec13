import DataModel

extension StoreSchema {
    /// Tables a store may hold besides the model's, which say nothing about the model: Core
    /// Data's bookkeeping, persistent history (`ATRANSACTION`, `ACHANGE`,
    /// `ATRANSACTIONSTRING`), CloudKit mirroring (`ANSCK…`) and iCloud ubiquity (`Y_UB…`).
    static func isBookkeepingTable(_ upperCasedName: String) -> Bool {
        ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "ATRANSACTION", "ACHANGE", "ATRANSACTIONSTRING"]
            .contains(upperCasedName)
            || upperCasedName.hasPrefix("ANSCK") || upperCasedName.hasPrefix("Y_UB") || upperCasedName.hasPrefix("SQLITE_")
    }

    /// How the file's structure differs from this schema's, one line each; empty when the file
    /// was written for a model of this structure.
    ///
    /// What the file shows: the entity numbers and parents of `Z_PRIMARYKEY`, the tables,
    /// their columns and declared types, and the join tables. An entity is matched by number;
    /// its `Z_NAME` may be the name it had before a renaming migration (Core Data keeps it), so
    /// a different name is accepted when the entity's renaming identifier is that name, and
    /// any name when `namesAreVouchedFor` (the store's version hashes are this model's:
    /// `StoreHashIdentity`, the test Core Data itself applies).
    func differences(from file: StoreFileDescription, namesAreVouchedFor: Bool = false) -> [String] {
        var differences: [String] = []
        let stored = Dictionary(file.entities.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        for entity in entities {
            guard let row = stored[entity.number] else {
                differences.append("Z_PRIMARYKEY has no entity \(entity.number) ('\(entity.name)')")
                continue
            }
            if !namesAreVouchedFor && row.name != entity.name && row.name != entity.renamingIdentifier {
                differences.append("entity \(entity.number) is '\(row.name)' in the file, '\(entity.name)' in the model")
            }
            let parent = entity.parentIndex.map { $0 + 1 } ?? 0
            if row.superNumber != parent {
                differences.append("entity \(entity.number) ('\(entity.name)') has parent \(row.superNumber) in the file, \(parent) in the model")
            }
        }
        for row in file.entities where row.number > entities.count {
            differences.append("the file has entity \(row.number) ('\(row.name)'), which the model does not")
        }
        var expectedTables: Set<String> = []
        for table in tables {
            let expected = [("Z_PK", "INTEGER"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER")]
                + table.columns.map { ($0.name.name, $0.declaredType) }
            compare(table: table.name.name, expected: expected, file: file, into: &differences)
            expectedTables.insert(table.name.name.uppercased())
        }
        for join in joinTables {
            var expected = [(join.ownerColumn.name, "INTEGER"), (join.memberColumn.name, "INTEGER")]
            if let order = join.ownerOrderColumn { expected.append((order.name, "INTEGER")) }
            if let order = join.memberOrderColumn { expected.append((order.name, "INTEGER")) }
            compare(table: join.name.name, expected: expected, file: file, into: &differences)
            expectedTables.insert(join.name.name.uppercased())
        }
        for table in file.tables.keys.sorted() where !expectedTables.contains(table) && !Self.isBookkeepingTable(table) {
            differences.append("the file has table \(table), which the model does not")
        }
        return differences
    }

    private func compare(table: String, expected: [(name: String, type: String)], file: StoreFileDescription,
                         into differences: inout [String]) {
        guard let columns = file.tables[table.uppercased()] else {
            differences.append("the file has no table \(table)")
            return
        }
        let present = Dictionary(columns.map { ($0.name.uppercased(), $0.declaredType.uppercased()) },
                                 uniquingKeysWith: { first, _ in first })
        for column in expected {
            guard let type = present[column.name.uppercased()] else {
                differences.append("\(table) has no column \(column.name)")
                continue
            }
            if type != column.type.uppercased() {
                differences.append("\(table).\(column.name) is \(type) in the file, \(column.type) for the model")
            }
        }
        let expectedNames = Set(expected.map { $0.name.uppercased() })
        for column in columns where !expectedNames.contains(column.name.uppercased()) {
            differences.append("\(table) has column \(column.name), which the model does not")
        }
    }
}

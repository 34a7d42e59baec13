import Conformance
import Foundation
import GRDB
import Testing
@testable import SQLiteStore

/// What reaches the file and what does not: saves, reopens, failed saves.
@Suite struct PersistenceTests {
    /// Every row of every table, read by a second connection: the file's content as another
    /// process sees it.
    static func dump(_ path: String) throws -> [String: [[String]]] {
        let db = try DatabaseQueue(path: path)
        defer { try? db.close() }
        return try db.read { db in
            var tables: [String: [[String]]] = [:]
            for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
                let quoted = "\"" + table.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                tables[table] = try Row.fetchAll(db, sql: "SELECT * FROM \(quoted)").map { row in
                    row.databaseValues.map(\.description)
                }.sorted { $0.lexicographicallyPrecedes($1) }
            }
            return tables
        }
    }

    @Test func savedObjectsAreReadBackAfterReopening() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let model = try TestModels.company()
        let ids: (sales: ObjectID, alice: ObjectID, bob: ObjectID, mix: ObjectID, tracks: [ObjectID], item: ObjectID, tag: ObjectID)
        do {
            let store = try SQLiteObjectStore(path: path, model: model)
            let sales = try store.insert("Department", values: ["name": .string("Sales")])
            let alice = try store.insert("Employee", values: ["name": .string("Alice"), "age": .integer(41)])
            let bob = try store.insert("Employee", values: ["name": .string("Bob")])
            try store.link(alice, "department", to: sales)
            try store.link(sales, "employees", to: bob)
            let tag = try store.insert("Tag", values: ["label": .string("remote")])
            try store.link(alice, "tags", to: tag)
            try store.link(tag, "employees", to: bob)
            let mix = try store.insert("Playlist")
            let tracks = try (1...3).map { try store.insert("Track", values: ["title": .string("T\($0)")]) }
            for track in tracks.reversed() { try store.link(mix, "tracks", to: track) }
            let item = try store.insert("Line Item", values: [
                "unit price": .double(2.5), "when": .date(secondsSinceReferenceDate: 12.25),
                "ref": .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
            ])
            try store.save()
            try store.close()
            ids = (sales, alice, bob, mix, tracks, item, tag)
        }
        let store = try SQLiteObjectStore(path: path, model: model)
        #expect(try store.value("name", of: ids.alice) == .string("Alice"))
        #expect(try store.value("age", of: ids.alice) == .integer(41))
        // A default value from the model, written at insert and read back.
        #expect(try store.value("age", of: ids.bob) == .integer(30))
        #expect(Set(try store.related(ids.sales, "employees")) == [ids.alice, ids.bob])
        #expect(try store.related(ids.bob, "department") == [ids.sales])
        #expect(Set(try store.related(ids.tag, "employees")) == [ids.alice, ids.bob])
        #expect(try store.related(ids.bob, "tags") == [ids.tag])
        #expect(try store.related(ids.mix, "tracks") == ids.tracks.reversed())
        #expect(try store.value("unit price", of: ids.item) == .double(2.5))
        #expect(try store.value("when", of: ids.item) == .date(secondsSinceReferenceDate: 12.25))
        #expect(try store.value("ref", of: ids.item) == .uuid("E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
        #expect(try store.count("Employee") == 2)
        #expect(try store.fetch("Employee", matching: ["name": .string("Bob")]) == [ids.bob])
    }

    @Test func rowsHoldCoreDataStyleKeysAndPositions() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let store = try SQLiteObjectStore(path: path, model: TestModels.company())
        let mix = try store.insert("Playlist")
        let first = try store.insert("Track", values: ["title": .string("first")])
        let second = try store.insert("Track", values: ["title": .string("second")])
        try store.link(mix, "tracks", to: second)
        try store.link(mix, "tracks", to: first)
        try store.save()
        try store.close()
        let db = try DatabaseQueue(path: path)
        let rows = try db.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT, ZTITLE, ZPLAYLIST, Z_FOK_PLAYLIST FROM ZTRACK ORDER BY Z_FOK_PLAYLIST")
        }
        #expect(rows.map { $0["ZTITLE"] as String } == ["second", "first"])
        #expect(rows.allSatisfy { $0["ZPLAYLIST"] as Int64 == mix.primaryKey && $0["Z_ENT"] as Int == 9 && $0["Z_OPT"] as Int == 1 })
        let highest = try db.read { db in try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Track'") }
        #expect(highest == 2)
    }

    @Test func reopeningDiscardsPendingChanges() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let model = try TestModels.company()
        var store = try SQLiteObjectStore(path: path, model: model)
        let sales = try store.insert("Department", values: ["name": .string("Sales")])
        try store.save()
        let pending = try store.insert("Department", values: ["name": .string("Pending")])
        try store.set("name", of: sales, to: .string("Renamed"))
        #expect(try store.count("Department") == 2)
        try store.close()
        store = try SQLiteObjectStore(path: path, model: model)
        #expect(try store.count("Department") == 1)
        #expect(try store.value("name", of: sales) == .string("Sales"))
        #expect(try !store.exists(pending))
    }

    @Test func aFailedSaveLeavesTheFileRowForRowUnchanged() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let store = try SQLiteObjectStore(path: path, model: TestModels.company())
        let sales = try store.insert("Department", values: ["name": .string("Sales")])
        let alice = try store.insert("Employee", values: ["name": .string("Alice")])
        try store.link(alice, "department", to: sales)
        try store.save()
        let before = try Self.dump(path)

        // Several changes, one of which (Deny) fails the save.
        _ = try store.insert("Employee", values: ["name": .string("Bob")])
        try store.set("name", of: alice, to: .string("Alicia"))
        try store.delete(sales)
        #expect {
            try store.save()
        } throws: { error in
            (error as? SaveFailedError)?.failure == ValidationFailure(code: CoreDataErrorCode.relationshipDeniedDelete, object: sales, key: "employees")
        }
        #expect(try Self.dump(path) == before)
        // The changes are still pending, so the next save fails the same way.
        #expect(throws: SaveFailedError.self) { try store.save() }
        #expect(try Self.dump(path) == before)
        #expect(try store.value("name", of: alice) == .string("Alicia"))

        store.reset()
        #expect(try store.value("name", of: alice) == .string("Alice"))
        #expect(try store.exists(sales))
        try store.save()
        #expect(try Self.dump(path) == before)
    }

    @Test func aConstraintConflictUnderTheErrorPolicyWritesNothing() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let store = try SQLiteObjectStore(path: path, model: TestModels.company())
        let saved = try store.insert("Customer", values: ["email": .string("a@example.com")])
        try store.save()
        let before = try Self.dump(path)
        _ = try store.insert("Customer", values: ["email": .string("b@example.com")])
        let duplicate = try store.insert("Customer", values: ["email": .string("a@example.com")])
        #expect {
            try store.save()
        } throws: { error in
            // The failure names the objects of the conflict: the saved row and the new one.
            (error as? SaveFailedError)?.failure == ValidationFailure(code: CoreDataErrorCode.managedObjectConstraintMerge,
                                                                      objects: [saved, duplicate])
        }
        #expect(try Self.dump(path) == before)
    }

    @Test func constraintsInheritedBySiblingsConflictAcrossTheHierarchy() throws {
        let scratch = try ScratchDirectory()
        let store = try SQLiteObjectStore(path: scratch.path("Company.sqlite"), model: TestModels.company())
        let customer = try store.insert("Customer", values: ["email": .string("a@example.com")])
        try store.save()
        let supplier = try store.insert("Supplier", values: ["email": .string("a@example.com")])
        #expect(throws: SaveFailedError(failure: ValidationFailure(code: CoreDataErrorCode.managedObjectConstraintMerge,
                                                                   objects: [customer, supplier]))) {
            try store.save()
        }
        // No policy can merge objects of different entities.
        #expect(throws: SaveFailedError(failure: ValidationFailure(code: CoreDataErrorCode.managedObjectMerge))) {
            try store.save(mergePolicy: .mergeByPropertyObjectTrump)
        }
    }

    @Test func objectTrumpKeepsTheStoredRowWithTheNewValues() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let store = try SQLiteObjectStore(path: path, model: TestModels.company())
        let stored = try store.insert("Customer", values: ["email": .string("a@example.com"), "tier": .integer(1)])
        try store.save()
        let duplicate = try store.insert("Customer", values: ["email": .string("a@example.com"), "tier": .integer(2)])
        try store.save(mergePolicy: .mergeByPropertyObjectTrump)
        #expect(try store.exists(stored))
        #expect(try !store.exists(duplicate))
        #expect(try store.value("tier", of: stored) == .integer(2))
        #expect(try store.count("Party") == 1)
    }

    @Test func overwriteReplacesTheStoredRowInOneSave() throws {
        let scratch = try ScratchDirectory()
        let store = try SQLiteObjectStore(path: scratch.path("Company.sqlite"), model: TestModels.company())
        let stored = try store.insert("Customer", values: ["email": .string("a@example.com"), "tier": .integer(1)])
        try store.save()
        let replacement = try store.insert("Customer", values: ["email": .string("a@example.com"), "tier": .integer(2)])
        try store.save(mergePolicy: .overwrite)
        #expect(try !store.exists(stored))
        #expect(try store.value("tier", of: replacement) == .integer(2))
    }

    @Test func requestsOnAClosedStoreFailClearly() throws {
        let scratch = try ScratchDirectory()
        let store = try SQLiteObjectStore(path: scratch.path("Company.sqlite"), model: TestModels.company())
        try store.close()
        #expect(throws: SQLiteStoreError.self) { try store.count("Employee") }
    }

    /// Every way to change a store is refused the same way when it is open read-only, and the
    /// file is left as it was.
    @Test func aReadOnlyStoreRefusesEveryChange() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        let writer = try SQLiteObjectStore(path: path, model: TestModels.company())
        let sales = try writer.insert("Department", values: ["name": .string("Sales")])
        let alice = try writer.insert("Employee", values: ["name": .string("Alice")])
        try writer.link(alice, "department", to: sales)
        try writer.save()
        try writer.close()
        let before = try ForeignFileTests.files(in: scratch)

        let reader = try SQLiteObjectStore(path: path, model: TestModels.company(), access: .readOnly)
        let changes: [(String, () throws -> Void)] = [
            ("insert", { _ = try reader.insert("Department") }),
            ("set", { try reader.set("name", of: alice, to: .string("Bob")) }),
            ("link", { try reader.link(alice, "department", to: sales) }),
            ("unlink", { try reader.unlink(alice, "department", from: sales) }),
            ("delete", { try reader.delete(sales) }),
        ]
        for (name, change) in changes {
            let error = try #require(throws: SQLiteStoreError.self, "\(name)", performing: change)
            #expect(error.message == "the store at '\(path)' is open read-only; open it with access .readWrite to change it", "\(name)")
        }
        #expect(!reader.hasChanges)
        try reader.close()
        #expect(try ForeignFileTests.files(in: scratch) == before)
    }
}

/// The UPDATE statements of a save, by the columns they set, are bounded.
@Suite struct StatementCacheTests {
    @Test func theLeastRecentlyUsedStatementGoesWhenTheCacheIsFull() throws {
        let queue = try DatabaseQueue()
        try queue.inDatabase { db in
            try db.execute(sql: "CREATE TABLE t (a, b, c)")
            let cache = StatementCache(capacity: 2)
            let a = try cache.statement("UPDATE t SET a = 1", db)
            _ = try cache.statement("UPDATE t SET b = 1", db)
            #expect(try cache.statement("UPDATE t SET a = 1", db) === a)
            _ = try cache.statement("UPDATE t SET c = 1", db)
            #expect(cache.count == 2)
            // b was the least recently used, so it went; a stayed.
            #expect(try cache.statement("UPDATE t SET a = 1", db) === a)
            #expect(cache.count == 2)
        }
    }

    /// A save updating many objects, each a different set of columns, writes every change.
    @Test func aSaveWithMoreColumnSetsThanTheCacheHoldsWritesThemAll() throws {
        let attributes = (0..<7).map { "<attribute name=\"v\($0)\" optional=\"YES\" attributeType=\"Integer 64\"/>" }.joined()
        let model = try TestModels.model("<entity name=\"Row\">\(attributes)</entity>")
        let scratch = try ScratchDirectory()
        let path = scratch.path("Rows.sqlite")
        var store = try SQLiteObjectStore(path: path, model: model)
        let rows = try (0..<100).map { _ in try store.insert("Row") }
        try store.save()
        // Object n sets the attributes named by the bits of n: 100 different column sets.
        for (n, row) in rows.enumerated() {
            for bit in 0..<7 where n & (1 << bit) != 0 { try store.set("v\(bit)", of: row, to: .integer(Int64(n))) }
        }
        try store.save()
        try store.close()
        store = try SQLiteObjectStore(path: path, model: model)
        for (n, row) in rows.enumerated() {
            for bit in 0..<7 {
                #expect(try store.value("v\(bit)", of: row) == (n & (1 << bit) != 0 ? .integer(Int64(n)) : .null))
            }
        }
    }
}

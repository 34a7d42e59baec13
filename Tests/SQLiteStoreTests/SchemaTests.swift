import Foundation
import GRDB
import SQLiteCascadeBenchmark
import Testing
@testable import SQLiteStore

/// The file's layout, read back through `sqlite_master` by a second connection: what another
/// tool (or Core Data's own habits) would see.
@Suite struct SchemaTests {
    private func createdStore() throws -> (ScratchDirectory, DatabaseQueue) {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        try SQLiteObjectStore(path: path, model: TestModels.company()).close()
        return (scratch, try DatabaseQueue(path: path))
    }

    private func columns(_ table: String, _ db: DatabaseQueue) throws -> [String] {
        try db.read { db in try db.columns(in: table).map(\.name) }
    }

    @Test func oneTablePerHierarchyPlusJoinAndMetadataTables() throws {
        let (scratch, db) = try createdStore()
        defer { withExtendedLifetime(scratch) {} }
        let tables = try db.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        // Entities are numbered depth first by name: Department 1, Employee 2, Line Item 3,
        // Party 4 (Customer 5, Supplier 6), Playlist 7, Tag 8, Track 9.
        #expect(tables == ["ZDEPARTMENT", "ZEMPLOYEE", "ZLINE ITEM", "ZPARTY", "ZPLAYLIST", "ZTAG", "ZTRACK",
                           "Z_2TAGS", "Z_METADATA", "Z_PRIMARYKEY"])
    }

    @Test func columnsPerAttributeAndToOneWithCoreDataNames() throws {
        let (scratch, db) = try createdStore()
        defer { withExtendedLifetime(scratch) {} }
        // Declared grouped by type as Core Data does (INTEGER, …, VARCHAR, BLOB).
        #expect(try columns("ZEMPLOYEE", db) == ["Z_PK", "Z_ENT", "Z_OPT", "ZAGE", "ZDEPARTMENT", "ZNAME"])
        #expect(try columns("ZDEPARTMENT", db) == ["Z_PK", "Z_ENT", "Z_OPT", "ZNAME"])
        // An ordered to-many's positions live beside the inverse's foreign key.
        #expect(try columns("ZTRACK", db) == ["Z_PK", "Z_ENT", "Z_OPT", "ZPLAYLIST", "Z_FOK_PLAYLIST", "ZTITLE"])
        // Names with spaces work because every identifier is quoted.
        #expect(try columns("ZLINE ITEM", db) == ["Z_PK", "Z_ENT", "Z_OPT", "ZUNIT PRICE", "ZWHEN", "ZREF"])
        // Sub-entities share the root's table; a clash between siblings' columns adds a digit.
        #expect(try columns("ZPARTY", db) == ["Z_PK", "Z_ENT", "Z_OPT", "ZTIER", "ZEMAIL", "ZTIER1"])
        // The many-to-many's join table: each column names the entity number of the row it
        // holds and the relationship pointing at that entity.
        #expect(try columns("Z_2TAGS", db) == ["Z_2EMPLOYEES", "Z_8TAGS"])
    }

    @Test func columnTypesFollowCoreData() throws {
        let (scratch, db) = try createdStore()
        defer { withExtendedLifetime(scratch) {} }
        let types = try db.read { db in try db.columns(in: "ZLINE ITEM").map(\.type) }
        #expect(types == ["INTEGER", "INTEGER", "INTEGER", "FLOAT", "TIMESTAMP", "BLOB"])
        let employee = try db.read { db in try db.columns(in: "ZEMPLOYEE").map(\.type) }
        #expect(employee == ["INTEGER", "INTEGER", "INTEGER", "INTEGER", "INTEGER", "VARCHAR"])
    }

    @Test func primaryKeyTableListsEveryEntityWithItsParent() throws {
        let (scratch, db) = try createdStore()
        defer { withExtendedLifetime(scratch) {} }
        let rows = try db.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT")
        }
        #expect(rows.map { $0["Z_NAME"] as String } == ["Department", "Employee", "Line Item", "Party", "Customer",
                                                          "Supplier", "Playlist", "Tag", "Track"])
        #expect(rows.map { $0["Z_SUPER"] as Int } == [0, 0, 0, 0, 4, 4, 0, 0, 0])
        #expect(rows.allSatisfy { $0["Z_MAX"] as Int == 0 })
    }

    @Test func uniquenessConstraintIsAPartialUniqueIndexOverTheHierarchy() throws {
        let (scratch, db) = try createdStore()
        defer { withExtendedLifetime(scratch) {} }
        let sql = try db.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = 'Z_PARTY_UNIQUE_EMAIL'")
        }
        #expect(sql == "CREATE UNIQUE INDEX \"Z_PARTY_UNIQUE_EMAIL\" ON \"ZPARTY\" (\"ZEMAIL\") WHERE \"Z_ENT\" BETWEEN 4 AND 6")
    }

    @Test func foreignKeyColumnsAreIndexed() throws {
        let (scratch, db) = try createdStore()
        defer { withExtendedLifetime(scratch) {} }
        let indexed = try db.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL ORDER BY name")
        }
        // Core Data's names: `<TABLE>_<COLUMN>_INDEX`, and `<TABLE>_Z_ENT_INDEX` on a table
        // a hierarchy shares.
        #expect(indexed == ["ZEMPLOYEE_ZDEPARTMENT_INDEX", "ZPARTY_Z_ENT_INDEX", "ZTRACK_ZPLAYLIST_INDEX",
                            "Z_2TAGS_Z_8TAGS_INDEX", "Z_PARTY_UNIQUE_EMAIL"])
        // A join table's index leads with the member column, then the owner, as Core Data's
        // `Z_1BOOKS_Z_2BOOKS_INDEX ON Z_1BOOKS (Z_2BOOKS, Z_1AUTHORS)`.
        let join = try db.read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'Z_2TAGS_Z_8TAGS_INDEX'")
        }
        #expect(join == "CREATE INDEX \"Z_2TAGS_Z_8TAGS_INDEX\" ON \"Z_2TAGS\" (\"Z_8TAGS\", \"Z_2EMPLOYEES\")")
    }

    /// A to-one into a hierarchy also records the destination's entity, as Core Data's
    /// `ZPAGE.Z1_BOOK` does; the column follows every change of the relationship.
    @Test func aToOneIntoAHierarchyRecordsTheDestinationsEntityNumber() throws {
        let model = try TestModels.model("""
            <entity name="Book">
                <relationship name="pages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
            </entity>
            <entity name="Novel" parentEntity="Book"/>
            <entity name="Page">
                <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
            </entity>
            """)
        let scratch = try ScratchDirectory()
        let path = scratch.path("Books.sqlite")
        let store = try SQLiteObjectStore(path: path, model: model)
        let novel = try store.insert("Novel"), book = try store.insert("Book"), page = try store.insert("Page")
        try store.link(page, "book", to: novel)
        try store.save()
        func pageRow() throws -> [String] {
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            return try queue.read { db in
                try #require(try Row.fetchOne(db, sql: "SELECT ZBOOK, Z1_BOOK FROM ZPAGE")).databaseValues.map(\.description)
            }
        }
        #expect(try columns("ZPAGE", DatabaseQueue(path: path)) == ["Z_PK", "Z_ENT", "Z_OPT", "ZBOOK", "Z1_BOOK"])
        #expect(try pageRow() == ["\(novel.primaryKey)", "2"])
        try store.link(page, "book", to: book)
        try store.save()
        #expect(try pageRow() == ["\(book.primaryKey)", "1"])
        try store.unlink(page, "book", from: book)
        try store.save()
        #expect(try pageRow() == ["NULL", "NULL"])
        try store.close()
    }

    /// When only one entity can be the destination (an abstract parent with one concrete
    /// sub-entity), its number comes from the schema: right for a destination the store has
    /// not read since it reopened.
    @Test func aToOneIntoAHierarchyWithOneConcreteEntityRecordsItsNumber() throws {
        let model = try TestModels.model("""
            <entity name="Book" isAbstract="YES">
                <relationship name="pages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Page" inverseName="book" inverseEntity="Page"/>
            </entity>
            <entity name="Novel" parentEntity="Book"/>
            <entity name="Page">
                <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/>
            </entity>
            """)
        let scratch = try ScratchDirectory()
        let path = scratch.path("Books.sqlite")
        var store = try SQLiteObjectStore(path: path, model: model)
        let novel = try store.insert("Novel")
        try store.save()
        try store.close()
        store = try SQLiteObjectStore(path: path, model: model)
        try store.link(try store.insert("Page"), "book", to: novel)
        try store.save()
        try store.close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let row = try queue.read { db in try #require(try Row.fetchOne(db, sql: "SELECT ZBOOK, Z1_BOOK FROM ZPAGE")) }
        #expect(row.databaseValues.map(\.description) == ["\(novel.primaryKey)", "2"])
    }

    /// Fetch indexes are written as Core Data writes them; an R-tree one is left out.
    @Test func fetchIndexesAreCreatedWithCoreDatasNames() throws {
        let model = try TestModels.model("""
            <entity name="Note">
                <attribute name="stamp" optional="YES" attributeType="Date"/>
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="x" optional="YES" attributeType="Double"/>
                <fetchIndex name="byTitle">
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byStampAndTitle">
                    <fetchIndexElement property="stamp" type="Binary" order="descending"/>
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
                <fetchIndex name="byPlace">
                    <fetchIndexElement property="x" type="RTree"/>
                </fetchIndex>
            </entity>
            """)
        let scratch = try ScratchDirectory()
        let path = scratch.path("Notes.sqlite")
        try SQLiteObjectStore(path: path, model: model).close()
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        let sql = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'index' AND name LIKE 'Z_Note_%' ORDER BY name")
        }
        #expect(sql == [
            "CREATE INDEX \"Z_Note_byStampAndTitle\" ON \"ZNOTE\" (\"ZSTAMP\" COLLATE BINARY DESC, \"ZTITLE\" COLLATE BINARY ASC)",
            "CREATE INDEX \"Z_Note_byTitle\" ON \"ZNOTE\" (\"ZTITLE\" COLLATE BINARY ASC)",
        ])
    }

    /// Which side of a many-to-many names the join table, as Core Data's files show: the
    /// relationship whose upper-cased name sorts last (`Z_2BLOCKING(Z_2BLOCKEDBY, Z_2BLOCKING)`),
    /// whichever entity declares it first.
    @Test func aManyToManyJoinTableIsNamedAfterTheRelationshipThatSortsLast() throws {
        let model = try TestModels.model("""
            <entity name="Album">
                <relationship name="assets" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Asset" inverseName="albums" inverseEntity="Asset"/>
            </entity>
            <entity name="Asset">
                <relationship name="albums" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Album" inverseName="assets" inverseEntity="Album"/>
            </entity>
            <entity name="Item">
                <relationship name="blockedBy" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="blocking" inverseEntity="Item"/>
                <relationship name="blocking" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="blockedBy" inverseEntity="Item"/>
            </entity>
            """)
        let schema = try StoreSchema(model: model)
        #expect(schema.joinTables.map { [$0.name.name, $0.ownerColumn.name, $0.memberColumn.name] }
            == [["Z_1ASSETS", "Z_1ALBUMS", "Z_2ASSETS"], ["Z_3BLOCKING", "Z_3BLOCKEDBY", "Z_3BLOCKING"]])
    }

    @Test func metadataNamesTheModelsFingerprint() throws {
        let (scratch, db) = try createdStore()
        defer { withExtendedLifetime(scratch) {} }
        let plist = try db.read { db in try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") }
        let values = try #require(try plist.flatMap { try PropertyListSerialization.propertyList(from: $0, format: nil) as? [String: Any] })
        #expect(values["NSStoreType"] as? String == "SQLite")
        #expect(values[StoreMetadata.fingerprintKey] as? String == (try StoreSchema(model: TestModels.company())).fingerprint)
    }

    @Test func aFileForAnotherModelIsRefusedWithAClearError() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Company.sqlite")
        try SQLiteObjectStore(path: path, model: TestModels.company()).close()
        #expect {
            try SQLiteObjectStore(path: path, model: CascadeShape.model())
        } throws: { error in
            let error = error as? SQLiteStoreError
            return error?.kind == .incompatibleFile && error!.message.contains("is a momlint SQLite store")
                && error!.message.contains("created for a different model")
        }
    }

    @Test func aFileThatIsNotADatabaseIsRefusedWithAClearError() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.txt")
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: path))
        #expect {
            try SQLiteObjectStore(path: path, model: TestModels.company())
        } throws: { error in
            (error as? SQLiteStoreError)?.message.hasPrefix("'\(path)' is not an SQLite database") == true
        }
    }

    @Test func modelsTheStoreCannotMapAreRefusedAtOpen() throws {
        let model = try TestModels.model("""
            <entity name="A">
                <relationship name="bs" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="B"/>
                <uniquenessConstraints><uniquenessConstraint><constraint value="bs"/></uniquenessConstraint></uniquenessConstraints>
            </entity>
            <entity name="B"/>
            """)
        let scratch = try ScratchDirectory()
        #expect {
            try SQLiteObjectStore(path: scratch.path("A.sqlite"), model: model)
        } throws: { error in
            (error as? SQLiteStoreError)?.message == "the uniqueness constraint of 'A' names the to-many 'bs'; constrain attributes or to-ones only"
        }
    }
}

import Conformance
import DataModel
import Foundation
import GRDB
import Testing
@testable import SQLiteStore

/// A store momlint did not create may hold anything in any column. A key or entity number it
/// cannot mean is one `unreadableValue` line naming the table, the row and the column — never
/// a crash (GRDB's typed subscripts stop the process on such a value) and never a guess (a key
/// of 2.5 read as 2). Attribute values of an unexpected kind are kept as stored.
@Suite struct UnreadableValueTests {
    static let model = """
        <entity name="Author">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        <entity name="Book">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="pages" optional="YES" attributeType="Integer 32"/>
            <attribute name="finished" optional="YES" attributeType="Boolean"/>
            <attribute name="rating" optional="YES" attributeType="Double"/>
            <attribute name="published" optional="YES" attributeType="Date"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
        </entity>
        <entity name="Shelf">
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
        </entity>
        """

    /// A Core Data–like store (Author 1, Book 1 by that author on Shelf 1), then `damage`
    /// applied to it with plain SQL, as another writer or a broken file may leave it.
    static func damagedStore(_ damage: String, in scratch: ScratchDirectory) throws -> (path: String, model: Model) {
        let model = try TestModels.model(Self.model)
        let path = try CoreDataStoreRecognitionTests.coreDataLikeStore(at: scratch.path("Books.sqlite"), model: model,
                                                                        persistentHistory: false) { store in
            let author = try store.insert("Author", values: ["name": .string("Ada")])
            let book = try store.insert("Book", values: ["title": .string("Notes"), "pages": .integer(120)])
            let shelf = try store.insert("Shelf")
            try store.link(book, "author", to: author)
            try store.link(book, "shelf", to: shelf)
        }
        let queue = try DatabaseQueue(path: path)
        try queue.write { db in try db.execute(sql: damage) }
        try queue.close()
        return (path, model)
    }

    /// The message of the `unreadableValue` error `body` throws (nil when it throws none or
    /// another).
    static func unreadable(_ body: () throws -> Void) -> String? {
        do {
            try body()
        } catch let error as SQLiteStoreError where error.kind == .unreadableValue {
            return error.message
        } catch {
            Issue.record("expected an unreadable value, got \(error)")
        }
        return nil
    }

    @Test func aForeignKeyHoldingTextIsNamedNotACrash() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE ZBOOK SET ZAUTHOR = 'abc'", in: scratch)
        let before = try ForeignFileTests.files(in: scratch)
        let store = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        defer { try? store.close() }
        let expected = "row 1 of ZBOOK has ZAUTHOR 'abc' (text), which is not a primary key (a whole number)"
        #expect(Self.unreadable { _ = try store.dump() } == expected)
        #expect(Self.unreadable { _ = try store.related(ObjectID(table: 1, primaryKey: 1), "author") } == expected)
        #expect(try ForeignFileTests.files(in: scratch) == before)
    }

    /// `Int64.fromDatabaseValue` rounds a REAL toward zero: 2.5 would name row 2.
    @Test func aForeignKeyWithAFractionIsNotRoundedToAnotherRow() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE ZBOOK SET ZAUTHOR = 1.5", in: scratch)
        let store = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        defer { try? store.close() }
        #expect(Self.unreadable { _ = try store.dump() }
            == "row 1 of ZBOOK has ZAUTHOR 1.5 (real), which is not a primary key (a whole number)")
        // Nor is the author's to-many, read from the same column, given the book.
        #expect(try store.related(ObjectID(table: 0, primaryKey: 1), "books").isEmpty)
    }

    @Test func aMissingEntityNumberIsNamed() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE ZBOOK SET Z_ENT = NULL", in: scratch)
        let store = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        defer { try? store.close() }
        #expect(Self.unreadable { _ = try store.dump() } == "row 1 of ZBOOK has Z_ENT NULL, which is not an entity number (a whole number)")
    }

    /// The file is described (rows per entity) before it is opened: a `Z_ENT` it cannot mean
    /// refuses the open, naming a row that holds it.
    @Test func anEntityNumberHoldingTextRefusesTheOpen() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE ZBOOK SET Z_ENT = 'Book'", in: scratch)
        let expected = "row 1 of ZBOOK has Z_ENT 'Book' (text), which is not an entity number (a whole number)"
        #expect(Self.unreadable { _ = try SQLiteObjectStore(path: path, model: model, access: .readOnly) } == expected)
        #expect(Self.unreadable { _ = try StoreFileDescription.read(path: path) } == expected)
    }

    @Test func aHighestKeyHoldingTextIsNamed() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE Z_PRIMARYKEY SET Z_MAX = 'many' WHERE Z_ENT = 2", in: scratch)
        #expect(Self.unreadable { _ = try SQLiteObjectStore(path: path, model: model, access: .readOnly) }
            == "the Z_PRIMARYKEY row of entity 2 has Z_MAX 'many' (text), which is not a primary key (a whole number)")
    }

    /// A deletion that runs as a set reads the keys on its edge from the file: a fraction there
    /// is refused, not rounded to another object's key.
    @Test func aSetDeletionRefusesAKeyWithAFractionOnItsEdge() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE ZBOOK SET ZAUTHOR = 2.5", in: scratch)
        let before = try ForeignFileTests.files(in: scratch)
        let store = try SQLiteObjectStore(path: path, model: model, access: .readWriteIncludingCoreDataStores)
        #expect(Self.unreadable { try store.delete(ObjectID(table: 2, primaryKey: 1)) }
            == "row 1 of ZBOOK has ZAUTHOR 2.5 (real), which is not a primary key (a whole number)")
        try store.close()
        #expect(try ForeignFileTests.files(in: scratch) == before)
    }

    /// An attribute's value of a kind its type does not expect is kept as stored: a fraction
    /// or a number beyond 64 bits in an integer column, a Boolean other than 0 or 1, a date no
    /// ISO 8601 text can write. Converting them would trap (`Int64(1e300)`) or change them.
    @Test func attributeValuesOfAnUnexpectedKindAreKeptAsStored() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE ZBOOK SET ZPAGES = 1e300, ZFINISHED = 2, ZPUBLISHED = 1e300", in: scratch)
        let store = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        defer { try? store.close() }
        let book = ObjectID(table: 1, primaryKey: 1)
        #expect(try store.value("pages", of: book) == .double(1e300))
        #expect(try store.value("finished", of: book) == .integer(2))
        #expect(try store.value("published", of: book) == .double(1e300))
        let otherScratch = try ScratchDirectory()
        let fraction = try Self.damagedStore("UPDATE ZBOOK SET ZPAGES = 2.5", in: otherScratch)
        let other = try SQLiteObjectStore(path: fraction.path, model: fraction.model, access: .readOnly)
        defer { try? other.close() }
        #expect(try other.value("pages", of: book) == .double(2.5))
    }

    /// JSON has no infinity, which a REAL column can hold: the JSON dump names the value and
    /// the text dump shows it.
    @Test func anInfinityIsNamedByTheJSONDumpAndShownByTheText() throws {
        let scratch = try ScratchDirectory()
        let (path, model) = try Self.damagedStore("UPDATE ZBOOK SET ZRATING = 9e999", in: scratch)
        let store = try SQLiteObjectStore(path: path, model: model, access: .readOnly)
        defer { try? store.close() }
        let dump = try store.dump()
        #expect(Self.unreadable { _ = try dump.json() }
            == "x-coredata://61FC2D16-6A9B-47E7-AD90-9013E066EC6C/Book/p1 has rating inf, which JSON cannot hold; dump it with --format text")
        #expect(dump.text.contains("  rating = inf\n"))
    }
}

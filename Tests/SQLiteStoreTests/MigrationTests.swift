import Conformance
import DataModel
import Foundation
import GRDB
import Testing
@testable import SQLiteStore

/// In-place lightweight migration of the SQLite store: a store saved with one model version,
/// opened with the next (docs/sqlite-store.md, "Migration"; docs/coredata-semantics.md §8).
@Suite struct MigrationTests {
    static let folderAndNotes = """
        <entity name="Folder">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="Note">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="body" optional="YES" attributeType="String"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
        </entity>
        """

    static func version(_ number: Int, _ entities: String) throws -> Model {
        try TestModels.model(entities, file: "Notes \(number).xcdatamodel/contents")
    }

    /// Two folders; notes "a" and "b" in the first, "c" with no title and no folder.
    @discardableResult
    static func fillVersion1(_ path: String, _ model: Model) throws -> [String: ObjectID] {
        let store = try SQLiteObjectStore(path: path, model: model)
        let work = try store.insert("Folder", values: ["name": .string("Work")])
        let home = try store.insert("Folder", values: ["name": .string("Home")])
        let a = try store.insert("Note", values: ["title": .string("a"), "body": .string("first")])
        let b = try store.insert("Note", values: ["title": .string("b")])
        let c = try store.insert("Note", values: ["body": .string("untitled")])
        try store.link(a, "folder", to: work)
        try store.link(b, "folder", to: work)
        try store.save()
        try store.close()
        return ["work": work, "home": home, "a": a, "b": b, "c": c]
    }

    func titles(_ store: SQLiteObjectStore, _ entity: String = "Note", attribute: String = "title") throws -> [AttributeValue] {
        try store.fetch(entity).map { try store.value(attribute, of: $0) }
    }

    func fileBytes(_ path: String) -> [Data?] {
        ["", "-wal"].map { FileManager.default.contents(atPath: path + $0) }
    }

    @Test func anAddedOptionalAttributeReadsNilAndADefaultFillsExistingRows() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<attribute name="body" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="body" optional="YES" attributeType="String"/><attribute name="pinned" optional="YES" attributeType="Boolean"/><attribute name="priority" attributeType="Integer 16" defaultValueString="3"/>"#))
        #expect(try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2) == .migrated)
        let store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try titles(store) == [.string("a"), .string("b"), .null])
        #expect(try titles(store, attribute: "pinned") == [.null, .null, .null])
        #expect(try titles(store, attribute: "priority") == [.integer(3), .integer(3), .integer(3)])
        let work = try #require(try store.fetch("Folder", matching: ["name": .string("Work")]).first)
        #expect(try store.related(work, "notes").count == 2)
        // Columns only added: the table was changed in place (ALTER TABLE … ADD COLUMN).
        let sql = try DatabaseQueue(path: path).read { db in
            try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'ZNOTE'")
        }
        #expect(sql?.hasSuffix("\"ZPINNED\" INTEGER, \"ZPRIORITY\" INTEGER)") == true, "\(sql ?? "")")
        // New objects get the new attribute's default, and the store saves.
        let d = try store.insert("Note", values: ["title": .string("d")])
        try store.save()
        #expect(try store.value("priority", of: d) == .integer(3))
    }

    @Test func aRemovedAttributeLeavesTheOthersAndItsColumnGoes() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        let objects = try Self.fillVersion1(path, v1)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: ""))
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        let store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try titles(store) == [.string("a"), .string("b"), .null])
        #expect(try store.related(objects["work"]!, "notes") == [objects["a"]!, objects["b"]!])
        let columns = try DatabaseQueue(path: path).read { db in try db.columns(in: "ZNOTE").map(\.name) }
        #expect(!columns.contains("ZBODY"))
    }

    @Test func renamingIdentifiersKeepEntityAttributeAndRelationshipData() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        let v2 = try Self.version(2, """
            <entity name="Folder">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="memos" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Memo" inverseName="place" inverseEntity="Memo" elementID="notes"/>
            </entity>
            <entity name="Memo" elementID="Note">
                <attribute name="heading" optional="YES" attributeType="String" elementID="title"/>
                <attribute name="body" optional="YES" attributeType="String"/>
                <relationship name="place" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="memos" inverseEntity="Folder" elementID="folder"/>
            </entity>
            """)
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        let store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try titles(store, "Memo", attribute: "heading") == [.string("a"), .string("b"), .null])
        #expect(try titles(store, "Memo", attribute: "body") == [.string("first"), .null, .string("untitled")])
        let work = try #require(try store.fetch("Folder", matching: ["name": .string("Work")]).first)
        let memos = try store.related(work, "memos")
        #expect(try memos.map { try store.value("heading", of: $0) } == [.string("a"), .string("b")])
        #expect(try store.related(memos[0], "place") == [work])
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables.contains("ZMEMO") && !tables.contains("ZNOTE"))
    }

    @Test func optionalMadeRequiredWithADefaultFillsTheRowsWithout() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="title" attributeType="String" defaultValueString="Untitled"/>"#))
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        let store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try titles(store) == [.string("a"), .string("b"), .string("Untitled")])
    }

    @Test func aRequiredAttributeWithoutDefaultOverRowsWithoutAValueFails134110AndTouchesNothing() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        let before = fileBytes(path)
        // Made required (note "c" has no title) and, in another run, added as required.
        for replacement in [#"<attribute name="title" attributeType="String"/>"#,
                            #"<attribute name="title" optional="YES" attributeType="String"/><attribute name="created" attributeType="Date"/>"#] {
            let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
                of: #"<attribute name="title" optional="YES" attributeType="String"/>"#, with: replacement))
            do {
                try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
                Issue.record("the migration left rows without a required value")
            } catch let error as StoreMigrationError {
                #expect(error.code == 134110)
                #expect(error.message.contains("'Note."), "\(error)")
            }
            #expect(fileBytes(path) == before)
        }
        let store = try SQLiteObjectStore(path: path, model: v1)
        #expect(try store.count("Note") == 3)
    }

    @Test func aToOneMadeToManyKeepsItsLinkInAJoinTable() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        let objects = try Self.fillVersion1(path, v1)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<relationship name="folder" optional="YES" maxCount="1""#,
            with: #"<relationship name="folder" optional="YES" toMany="YES""#))
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        let store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try store.related(objects["a"]!, "folder") == [objects["work"]!])
        #expect(try store.related(objects["c"]!, "folder") == [])
        #expect(try store.related(objects["work"]!, "notes") == [objects["a"]!, objects["b"]!])
        // And back: the to-many made to-one keeps one destination.
        try store.link(objects["a"]!, "folder", to: objects["home"]!)
        try store.save()
        try store.close()
        try SQLiteObjectStore.migrateStore(at: path, from: v2, to: v1)
        let back = try SQLiteObjectStore(path: path, model: v1)
        #expect(try back.related(objects["b"]!, "folder") == [objects["work"]!])
        #expect(try back.related(objects["a"]!, "folder").count == 1)
    }

    @Test func unorderedMadeOrderedAndBackKeepsTheMembers() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        let objects = try Self.fillVersion1(path, v1)
        let ordered = Self.folderAndNotes.replacingOccurrences(
            of: #"<relationship name="notes" optional="YES" toMany="YES""#,
            with: #"<relationship name="notes" optional="YES" toMany="YES" ordered="YES""#)
        let v2 = try Self.version(2, ordered)
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        var store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try store.related(objects["work"]!, "notes") == [objects["a"]!, objects["b"]!])
        let positions = try DatabaseQueue(path: path).read { db in
            try Int.fetchAll(db, sql: "SELECT Z_FOK_FOLDER FROM ZNOTE WHERE ZFOLDER IS NOT NULL ORDER BY Z_PK")
        }
        #expect(positions == [1, 2])
        // Reorder, then make it unordered again: both members stay.
        try store.unlink(objects["work"]!, "notes", from: objects["a"]!)
        try store.link(objects["work"]!, "notes", to: objects["a"]!)
        try store.save()
        #expect(try store.related(objects["work"]!, "notes") == [objects["b"]!, objects["a"]!])
        try store.close()
        let v3 = try Self.version(3, Self.folderAndNotes)
        try SQLiteObjectStore.migrateStore(at: path, from: v2, to: v3)
        store = try SQLiteObjectStore(path: path, model: v3)
        #expect(Set(try store.related(objects["work"]!, "notes")) == [objects["a"]!, objects["b"]!])
    }

    static let taggedNotes = """
        <entity name="Note">
            <attribute name="title" optional="YES" attributeType="String"/>
            <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="notes" inverseEntity="Tag"/>
        </entity>
        <entity name="Tag">
            <attribute name="label" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="tags" inverseEntity="Note"/>
        </entity>
        """

    @Test func manyToManyLinksSurviveRenumberingAndAnOrderedSide() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("tags.sqlite")
        let v1 = try Self.version(1, Self.taggedNotes)
        var store = try SQLiteObjectStore(path: path, model: v1)
        let n1 = try store.insert("Note", values: ["title": .string("one")])
        let n2 = try store.insert("Note", values: ["title": .string("two")])
        let red = try store.insert("Tag", values: ["label": .string("red")])
        let blue = try store.insert("Tag", values: ["label": .string("blue")])
        try store.link(n1, "tags", to: red)
        try store.link(n1, "tags", to: blue)
        try store.link(n2, "tags", to: blue)
        try store.save()
        try store.close()
        // A new first entity renumbers Note (1 → 2) and Tag (2 → 3): the join table
        // Z_1TAGS becomes Z_2TAGS; and Note.tags becomes ordered.
        let v2 = try Self.version(2, #"<entity name="Attachment"><attribute name="size" optional="YES" attributeType="Integer 64"/></entity>"#
            + Self.taggedNotes.replacingOccurrences(of: #"<relationship name="tags" optional="YES" toMany="YES""#,
                                                    with: #"<relationship name="tags" optional="YES" toMany="YES" ordered="YES""#))
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        store = try SQLiteObjectStore(path: path, model: v2)
        let notes = try store.fetch("Note")
        #expect(try notes.map { try store.value("title", of: $0) } == [.string("one"), .string("two")])
        #expect(try store.related(notes[0], "tags").map { try store.value("label", of: $0) } == [.string("red"), .string("blue")])
        let blueTag = try #require(try store.fetch("Tag", matching: ["label": .string("blue")]).first)
        #expect(try store.related(blueTag, "notes") == notes)
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables.contains("Z_2TAGS") && !tables.contains("Z_1TAGS"), "\(tables)")
        // The added entity works.
        try store.insert("Attachment", values: ["size": .integer(10)])
        try store.save()
        #expect(try store.count("Attachment") == 1)
    }

    @Test func aRemovedEntityTakesItsRowsAndLinksWithIt() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("tags.sqlite")
        let v1 = try Self.version(1, Self.taggedNotes)
        var store = try SQLiteObjectStore(path: path, model: v1)
        let note = try store.insert("Note", values: ["title": .string("one")])
        try store.link(note, "tags", to: try store.insert("Tag", values: ["label": .string("red")]))
        try store.save()
        try store.close()
        let v2 = try Self.version(2, #"<entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>"#)
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try titles(store) == [.string("one")])
        let tables = try DatabaseQueue(path: path).read { db in
            try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        }
        #expect(tables == ["ZNOTE", "Z_METADATA", "Z_PRIMARYKEY"])
    }

    @Test func aNewParentEntityMovesTheRowsIntoItsTable() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        let objects = try Self.fillVersion1(path, v1)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(of: #"<entity name="Note">"#, with: #"<entity name="Note" parentEntity="Item">"#)
            + #"<entity name="Item" isAbstract="YES"><attribute name="created" optional="YES" attributeType="Date"/></entity>"#)
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        let store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try titles(store) == [.string("a"), .string("b"), .null])
        #expect(try titles(store, "Item") == [.string("a"), .string("b"), .null])
        let work = try #require(try store.fetch("Folder", matching: ["name": .string("Work")]).first)
        let notes = try store.related(work, "notes")
        #expect(notes.map(\.primaryKey) == [objects["a"]!.primaryKey, objects["b"]!.primaryKey])
        let rows = try DatabaseQueue(path: path).read { db in
            try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { "\($0[0] as Int) \($0[1] as String) \($0[2] as Int)" }
        }
        #expect(rows == ["1 Folder 0", "2 Item 0", "3 Note 2"])
        let entities = try DatabaseQueue(path: path).read { db in try Int.fetchAll(db, sql: "SELECT DISTINCT Z_ENT FROM ZITEM") }
        #expect(entities == [3])
        // Keys go on from the old table's highest.
        let e = try store.insert("Note", values: ["title": .string("e")])
        try store.save()
        #expect(e.primaryKey == 4)
    }

    @Test func version1ToVersion3DirectlyGivesWhatTwoStepsGive() throws {
        let scratch = try ScratchDirectory()
        let v1 = try Self.version(1, Self.folderAndNotes)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<attribute name="body" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="body" optional="YES" attributeType="String"/><attribute name="rank" attributeType="Integer 32" defaultValueString="5"/>"#))
        let v3 = try Self.version(3, """
            <entity name="Folder">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="notes" optional="YES" toMany="YES" ordered="YES" deletionRule="Nullify" destinationEntity="Memo" inverseName="folder" inverseEntity="Memo"/>
            </entity>
            <entity name="Memo" elementID="Note">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="rank" attributeType="Integer 32" defaultValueString="5"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
            </entity>
            """)
        let direct = scratch.path("direct.sqlite"), stepwise = scratch.path("stepwise.sqlite")
        try Self.fillVersion1(direct, v1)
        try Self.fillVersion1(stepwise, v1)
        try SQLiteObjectStore.migrateStore(at: direct, from: v1, to: v3)
        try SQLiteObjectStore.migrateStore(at: stepwise, from: v1, to: v2)
        try SQLiteObjectStore.migrateStore(at: stepwise, from: v2, to: v3)
        let dumps = try [direct, stepwise].map { path in
            let store = try SQLiteObjectStore(path: path, model: v3, access: .readOnly)
            // Object IDs name the store's UUID and the dump its path, which differ between the files.
            return String(decoding: try store.dump().json(), as: UTF8.self)
                .replacingOccurrences(of: store.fileDescription?.uuid ?? "?", with: "STORE")
                .replacingOccurrences(of: path, with: "PATH")
        }
        #expect(dumps[0] == dumps[1])
        #expect(dumps[0].contains("\"rank\" : 5"))
    }

    @Test func theSameModelReopensWithoutTouchingTheFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        let before = fileBytes(path)
        #expect(try SQLiteObjectStore.migrateStore(at: path, from: v1, to: try Self.version(2, Self.folderAndNotes)) == .unchanged)
        #expect(fileBytes(path) == before)
    }

    @Test func aStoreMomlintDidNotCreateIsMigratedOnlyWhenWritingIsAllowed() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("coredata.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        // Without momlint's fingerprint the file reads as a store Core Data wrote.
        try DatabaseQueue(path: path).write { db in
            let plist: [String: Any] = ["NSStoreType": "SQLite", "NSStoreModelVersionIdentifiers": [""],
                                        "NSStoreModelVersionHashes": ["Note": Data(repeating: 1, count: 32)]]
            let data = try PropertyListSerialization.data(fromPropertyList: plist, format: .binary, options: 0)
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [data])
            try db.execute(sql: "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)")
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (x'00')")
        }
        let before = fileBytes(path)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: ""))
        for access in [SQLiteObjectStore.Access.readWrite, .readOnly] {
            #expect(throws: SQLiteStoreError.self) { try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2, access: access) }
            #expect(fileBytes(path) == before)
        }
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2, access: .readWriteIncludingCoreDataStores)
        let store = try SQLiteObjectStore(path: path, model: v2, access: .readOnly)
        #expect(try titles(store) == [.string("a"), .string("b"), .null])
        // The source model's hashes and cached model would misdescribe the file: gone.
        #expect(store.fileDescription?.versionHashes.isEmpty == true)
        #expect(store.fileDescription?.versionIdentifiers == [""])
        #expect(store.fileDescription?.writer == .coreData)
        let cached = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Z_MODELCACHE") }
        #expect(cached == 0)
    }

    @Test func aPropertyMovedUpTheHierarchyKeepsEachSubEntitysValues() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("items.sqlite")
        let v1 = try Self.version(1, """
            <entity name="Item" isAbstract="YES"/>
            <entity name="Note" parentEntity="Item"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Photo" parentEntity="Item"><attribute name="title" optional="YES" attributeType="String"/><attribute name="url" optional="YES" attributeType="String"/></entity>
            """)
        var store = try SQLiteObjectStore(path: path, model: v1)
        try store.insert("Note", values: ["title": .string("a note")])
        try store.insert("Photo", values: ["title": .string("a photo"), "url": .string("u")])
        try store.save()
        try store.close()
        let v2 = try Self.version(2, """
            <entity name="Item" isAbstract="YES"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Note" parentEntity="Item"/>
            <entity name="Photo" parentEntity="Item"><attribute name="url" optional="YES" attributeType="String"/></entity>
            """)
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try titles(store, "Item") == [.string("a note"), .string("a photo")])
        #expect(try titles(store, "Photo", attribute: "url") == [.string("u")])
        let columns = try DatabaseQueue(path: path).read { db in try db.columns(in: "ZITEM").map(\.name) }
        #expect(columns == ["Z_PK", "Z_ENT", "Z_OPT", "ZTITLE", "ZURL"])
    }

    @Test func anEntityMadeASubEntityOfAnotherRootIsRefusedAs134140() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        let before = fileBytes(path)
        // Note's rows would join Folder's table, where their keys collide.
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(of: #"<entity name="Note">"#,
                                                                            with: #"<entity name="Note" parentEntity="Folder">"#))
        #expect { try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2) } throws: { error in
            (error as? StoreMigrationError)?.code == 134140
        }
        #expect(fileBytes(path) == before)
    }

    @Test func aOneWayToManyThatGainsAnInverseKeepsItsLinksOnBothSides() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("oneway.sqlite")
        let v1 = try Self.version(1, """
            <entity name="Folder"><relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/></entity>
            <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        var store = try SQLiteObjectStore(path: path, model: v1)
        let folder = try store.insert("Folder")
        let a = try store.insert("Note", values: ["title": .string("a")])
        let b = try store.insert("Note", values: ["title": .string("b")])
        try store.link(folder, "notes", to: a)
        try store.link(folder, "notes", to: b)
        try store.save()
        try store.close()
        let v2 = try Self.version(2, Self.folderAndNotes)
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        store = try SQLiteObjectStore(path: path, model: v2)
        #expect(try store.related(folder, "notes") == [a, b])
        #expect(try store.related(b, "folder") == [folder])
    }

    @Test func withoutMigrationAChangedHashFails134100AndTouchesNothing() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("notes.sqlite")
        let v1 = try Self.version(1, Self.folderAndNotes)
        try Self.fillVersion1(path, v1)
        let before = fileBytes(path)
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<attribute name="body" optional="YES" attributeType="String"/>"#, with: ""))
        #expect { try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2, migration: .none) } throws: { error in
            (error as? StoreMigrationError)?.code == 134100
        }
        #expect(fileBytes(path) == before)
        #expect(try SQLiteObjectStore.migrateStore(at: path, from: v1, to: Self.version(3, Self.folderAndNotes), migration: .none)
            == .unchanged)
    }

    @Test func renumberingKeepsSelfInverseLinksAndEntityNumberColumns() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("library.sqlite")
        let library = """
            <entity name="Book"><attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="pages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Page" inverseName="book" inverseEntity="Page"/></entity>
            <entity name="Novel" parentEntity="Book"/>
            <entity name="Page"><attribute name="number" optional="YES" attributeType="Integer 32"/>
                <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="pages" inverseEntity="Book"/></entity>
            <entity name="Person"><relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/></entity>
            """
        let v1 = try Self.version(1, library)
        var store = try SQLiteObjectStore(path: path, model: v1)
        let novel = try store.insert("Novel", values: ["title": .string("n")])
        let page = try store.insert("Page", values: ["number": .integer(1)])
        try store.link(page, "book", to: novel)
        let ann = try store.insert("Person"), bob = try store.insert("Person")
        try store.link(ann, "friends", to: bob)
        try store.save()
        try store.close()
        // "Atlas" is numbered first: Book 1 → 2, Novel 2 → 3, Page 3 → 4, Person 4 → 5.
        let v2 = try Self.version(2, #"<entity name="Atlas"/>"# + library)
        try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2)
        store = try SQLiteObjectStore(path: path, model: v2)
        // Object IDs name tables by position, which the new first table moved: fetch again.
        let novel2 = try #require(try store.fetch("Book").first), page2 = try #require(try store.fetch("Page").first)
        #expect(novel2.primaryKey == novel.primaryKey && page2.primaryKey == page.primaryKey)
        #expect(try store.entityName(of: novel2) == "Novel")
        #expect(try store.related(page2, "book") == [novel2])
        #expect(try store.related(novel2, "pages") == [page2])
        let people = try store.fetch("Person")
        #expect(people.map(\.primaryKey) == [ann.primaryKey, bob.primaryKey])
        #expect(try store.related(people[1], "friends") == [people[0]])
        #expect(try store.related(people[0], "friends") == [people[1]])
        let entityColumn = try DatabaseQueue(path: path).read { db in try Int.fetchOne(db, sql: "SELECT Z2_BOOK FROM ZPAGE") }
        #expect(entityColumn == 3)
    }

    // MARK: Through the conformance adapter

    func adapterStore(_ scratch: ScratchDirectory, _ model: Model) throws -> SQLiteConformanceStore {
        try SQLiteConformanceStore(path: scratch.path("adapter.sqlite"),
                                   setup: StoreSetup(model: model, modelPath: scratch.path("Notes.xcdatamodeld"), scenarioID: "migration"))
    }

    @Test func theAdapterMigratesAndKeepsTheScenarioNames() throws {
        let scratch = try ScratchDirectory()
        let v1 = try Self.version(1, Self.folderAndNotes)
        let store = try adapterStore(scratch, v1)
        defer { store.close() }
        _ = try store.perform(.insert(entity: "Folder", object: "work", values: ["name": .string("Work")]))
        _ = try store.perform(.insert(entity: "Note", object: "a", values: ["title": .string("a")]))
        _ = try store.perform(.link(object: "a", relationship: "folder", destination: "work"))
        _ = try store.perform(.save(policy: .error))
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(of: #"<entity name="Note">"#, with: #"<entity name="Note" parentEntity="Item">"#)
            + #"<entity name="Item" isAbstract="YES"/>"#)
        let refused = try store.reopen(with: v2, modelPath: "Notes 2.xcdatamodel", migration: .none)
        guard case .openFailed(let failure) = refused else {
            Issue.record("opened a store of another version without migration: \(refused)")
            return
        }
        #expect(failure.code == 134100)
        #expect(failure.message.contains("no migration was asked for"), "\(failure)")
        #expect(try store.perform(.value(object: "a", attribute: "title")) == .value(.string("a")))
        #expect(try store.reopen(with: v2, modelPath: "Notes 2.xcdatamodel", migration: .lightweight) == .done)
        #expect(try store.perform(.value(object: "a", attribute: "title")) == .value(.string("a")))
        #expect(try store.perform(.related(object: "work", relationship: "notes")) == .objects(["a"]))
        #expect(try store.perform(.count(entity: "Item")) == .count(1))
        // The same model again: nothing to migrate, with or without migration.
        #expect(try store.reopen(with: v2, modelPath: "Notes 2.xcdatamodel", migration: .none) == .done)
    }

    /// Observed (WooCommerce Model 87 → 88): Integer 64 → Double migrates with an inferred
    /// mapping and a stored 1 reads back as 1.0. Double → Integer 32 truncates toward zero
    /// (inferred, SQLite's CAST); between integer types the values are kept.
    @Test func numericTypeChangesMigrateConvertingTheStoredValues() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("cards.sqlite")
        let entities = """
            <entity name="Card">
                <attribute name="amount" optional="YES" attributeType="Integer 64"/>
                <attribute name="rate" optional="YES" attributeType="Double"/>
                <attribute name="quantity" optional="YES" attributeType="Integer 16"/>
            </entity>
            """
        let v1 = try Self.version(1, entities)
        let store = try SQLiteObjectStore(path: path, model: v1)
        let card = try store.insert("Card", values: ["amount": .integer(1), "rate": .double(-2.75), "quantity": .integer(7)])
        _ = try store.insert("Card", values: [:])
        try store.save()
        try store.close()
        let v2 = try Self.version(2, entities
            .replacingOccurrences(of: #"name="amount" optional="YES" attributeType="Integer 64""#, with: #"name="amount" optional="YES" attributeType="Double""#)
            .replacingOccurrences(of: #"name="rate" optional="YES" attributeType="Double""#, with: #"name="rate" optional="YES" attributeType="Integer 32""#)
            .replacingOccurrences(of: #"attributeType="Integer 16""#, with: #"attributeType="Integer 64""#))
        #expect(try SQLiteObjectStore.migrateStore(at: path, from: v1, to: v2) == .migrated)
        let migrated = try SQLiteObjectStore(path: path, model: v2)
        defer { try? migrated.close() }
        #expect(try migrated.value("amount", of: card) == .double(1.0))
        #expect(try migrated.value("rate", of: card) == .integer(-2))
        #expect(try migrated.value("quantity", of: card) == .integer(7))
        #expect(try titles(migrated, "Card", attribute: "amount").contains(.null))
    }

    @Test func theAdapterAnswers134140ForAChangeLightweightMigrationCannotInfer() throws {
        let scratch = try ScratchDirectory()
        let v1 = try Self.version(1, Self.folderAndNotes)
        let store = try adapterStore(scratch, v1)
        defer { store.close() }
        _ = try store.perform(.insert(entity: "Note", object: "a", values: ["title": .string("a")]))
        _ = try store.perform(.save(policy: .error))
        let v2 = try Self.version(2, Self.folderAndNotes.replacingOccurrences(
            of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="title" optional="YES" attributeType="Integer 32"/>"#))
        guard case .openFailed(let failure) = try store.reopen(with: v2, modelPath: "Notes 2.xcdatamodel", migration: .lightweight) else {
            Issue.record("a type change migrated")
            return
        }
        #expect(failure.code == 134140)
        #expect(try store.perform(.value(object: "a", attribute: "title")) == .value(.string("a")))
    }
}

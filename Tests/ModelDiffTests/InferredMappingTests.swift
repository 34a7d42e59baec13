import DataModel
import Foundation
import ModelDiff
import MomlintTestSupport
import Testing

/// The mapping a store's migration reads: which source entity and property each destination
/// element takes its data from, and when inference fails (134140).
@Suite struct InferredMappingTests {
    let version1 = """
        <entity name="Folder" representedClassName="Folder">
            <attribute name="name" optional="YES" attributeType="String"/>
            <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
        </entity>
        <entity name="Note" representedClassName="Note">
            <attribute name="title" optional="YES" attributeType="String"/>
            <attribute name="body" optional="YES" attributeType="String"/>
            <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
        </entity>
        """

    @Test func theSameModelNeedsNoMigrationAndMapsEverythingToItself() throws {
        let model = try Fixtures.model(version1)
        let mapping = try InferredMapping(from: model, to: model)
        #expect(!mapping.needsMigration)
        #expect(mapping.entities.map(\.destinationEntity) == ["Folder", "Note"])
        #expect(mapping.entities.map(\.sourceEntity) == ["Folder", "Note"])
        let note = try #require(mapping.entity(named: "Note"))
        #expect(note.attributes.map(\.sourceProperty) == ["title", "body"])
        #expect(note.relationships.map(\.sourceProperty) == ["folder"])
    }

    @Test func anAddedAttributeAndAnAddedEntityHaveNoSource() throws {
        let source = try Fixtures.model(version1)
        let destination = try Fixtures.model(version1.replacingOccurrences(
            of: #"<attribute name="body" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="body" optional="YES" attributeType="String"/><attribute name="pinned" optional="YES" attributeType="Boolean"/>"#)
            + #"<entity name="Tag"><attribute name="label" optional="YES" attributeType="String"/></entity>"#)
        let mapping = try InferredMapping(from: source, to: destination)
        #expect(mapping.needsMigration)
        let note = try #require(mapping.entity(named: "Note"))
        #expect(note.property(named: "pinned")?.sourceProperty == nil)
        #expect(note.property(named: "title")?.sourceProperty == "title")
        let tag = try #require(mapping.entity(named: "Tag"))
        #expect(tag.sourceEntity == nil)
        #expect(tag.attributes.map(\.destinationProperty) == ["label"])
        #expect(tag.attributes.allSatisfy { $0.sourceProperty == nil })
    }

    @Test func renamingIdentifiersMapRenamedEntitiesAndPropertiesToTheirOldNames() throws {
        let source = try Fixtures.model(version1)
        let destination = try Fixtures.model("""
            <entity name="Folder">
                <attribute name="name" optional="YES" attributeType="String"/>
                <relationship name="memos" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Memo" inverseName="folder" inverseEntity="Memo" elementID="notes"/>
            </entity>
            <entity name="Memo" elementID="Note">
                <attribute name="heading" optional="YES" attributeType="String" elementID="title"/>
                <attribute name="body" optional="YES" attributeType="String"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="memos" inverseEntity="Folder"/>
            </entity>
            """)
        let mapping = try InferredMapping(from: source, to: destination)
        #expect(mapping.needsMigration)
        let memo = try #require(mapping.entity(named: "Memo"))
        #expect(memo.sourceEntity == "Note")
        #expect(memo.property(named: "heading")?.sourceProperty == "title")
        #expect(memo.property(named: "body")?.sourceProperty == "body")
        #expect(mapping.entity(named: "Folder")?.property(named: "memos")?.sourceProperty == "notes")
        #expect(mapping.removedSourceEntities(of: source).isEmpty)
    }

    @Test func inheritedPropertiesAreListedAndAPropertyMovedUpKeepsItsSource() throws {
        let source = try Fixtures.model("""
            <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>
            """)
        let destination = try Fixtures.model("""
            <entity name="Item" isAbstract="YES"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Note" parentEntity="Item"><attribute name="body" optional="YES" attributeType="String"/></entity>
            """)
        let mapping = try InferredMapping(from: source, to: destination)
        #expect(mapping.entity(named: "Item")?.sourceEntity == nil)
        let note = try #require(mapping.entity(named: "Note"))
        #expect(note.sourceEntity == "Note")
        #expect(note.attributes.map(\.destinationProperty) == ["body", "title"])
        #expect(note.attributes.map(\.sourceProperty) == [nil, "title"])
        #expect(note.attributes.map(\.declaringEntity) == ["Note", "Item"])
    }

    @Test func aRequiredAttributeWithoutDefaultIsInferredButMarked() throws {
        let source = try Fixtures.model(version1)
        let destination = try Fixtures.model(version1.replacingOccurrences(
            of: #"<attribute name="title" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="title" attributeType="String"/>"#))
        let mapping = try InferredMapping(from: source, to: destination)
        let note = try #require(mapping.entity(named: "Note"))
        #expect(note.property(named: "title")?.requiresStoredValue == true)
        #expect(note.property(named: "body")?.requiresStoredValue == false)
    }

    @Test func aTypeChangeCannotBeInferredAndNamesTheChange() throws {
        let source = try Fixtures.model(version1)
        let destination = try Fixtures.model(version1.replacingOccurrences(
            of: #"<attribute name="body" optional="YES" attributeType="String"/>"#,
            with: #"<attribute name="body" optional="YES" attributeType="Integer 32"/>"#))
        #expect(MappingInferenceError.coreDataCode == 134140)
        do {
            _ = try InferredMapping(from: source, to: destination)
            Issue.record("a type change was inferred")
        } catch {
            #expect(error.change.aspect == .attributeType)
            #expect(error.description.contains("'Note.body'"), "\(error)")
        }
    }

    @Test func mergingTwoHierarchiesCannotBeInferred() throws {
        let source = try Fixtures.model("""
            <entity name="Note"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Photo"><attribute name="url" optional="YES" attributeType="String"/></entity>
            """)
        let destination = try Fixtures.model("""
            <entity name="Item" isAbstract="YES"/>
            <entity name="Note" parentEntity="Item"><attribute name="title" optional="YES" attributeType="String"/></entity>
            <entity name="Photo" parentEntity="Item"><attribute name="url" optional="YES" attributeType="String"/></entity>
            """)
        #expect(throws: MappingInferenceError.self) { try InferredMapping(from: source, to: destination) }
    }

    @Test func aRemovedEntityIsNoDestinationsSource() throws {
        let source = try Fixtures.model(version1 + #"<entity name="Tag"/>"#)
        let mapping = try InferredMapping(from: source, to: try Fixtures.model(version1))
        #expect(mapping.needsMigration)
        #expect(mapping.removedSourceEntities(of: source) == ["Tag"])
    }
}

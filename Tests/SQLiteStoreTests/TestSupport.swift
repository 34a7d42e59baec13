import DataModel
import Foundation
@testable import SQLiteStore

/// Models written inline, loaded by the real parser, and scratch files for stores.
enum TestModels {
    static func model(_ entities: String, file: String = "Test.xcdatamodel/contents") throws -> Model {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
            \(entities)
            </model>
            """
        return try ModelLoader().model(fromContents: Array(contents.utf8), file: file)
    }

    /// Departments and employees (one-to-many, Deny from Department), tags (many-to-many),
    /// playlists (ordered), an entity and attribute with spaces, and an abstract parent with a
    /// uniqueness constraint inherited by two sub-entities.
    static func company() throws -> Model {
        try model("""
            <entity name="Department">
                <attribute name="name" attributeType="String"/>
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Employee" inverseName="department" inverseEntity="Employee"/>
            </entity>
            <entity name="Employee">
                <attribute name="name" attributeType="String"/>
                <attribute name="age" optional="YES" attributeType="Integer 32" defaultValueString="30" usesScalarValueType="YES"/>
                <relationship name="department" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Department" inverseName="employees" inverseEntity="Department"/>
                <relationship name="tags" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Tag" inverseName="employees" inverseEntity="Tag"/>
            </entity>
            <entity name="Tag">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="employees" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Employee" inverseName="tags" inverseEntity="Employee"/>
            </entity>
            <entity name="Playlist">
                <relationship name="tracks" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="Track" inverseName="playlist" inverseEntity="Track"/>
            </entity>
            <entity name="Track">
                <attribute name="title" optional="YES" attributeType="String"/>
                <relationship name="playlist" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Playlist" inverseName="tracks" inverseEntity="Playlist"/>
            </entity>
            <entity name="Line Item">
                <attribute name="unit price" optional="YES" attributeType="Double"/>
                <attribute name="when" optional="YES" attributeType="Date"/>
                <attribute name="ref" optional="YES" attributeType="UUID"/>
            </entity>
            <entity name="Party" isAbstract="YES">
                <attribute name="email" optional="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="email"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Customer" parentEntity="Party">
                <attribute name="tier" optional="YES" attributeType="Integer 16"/>
            </entity>
            <entity name="Supplier" parentEntity="Party">
                <attribute name="tier" optional="YES" attributeType="String"/>
            </entity>
            """)
    }
}

/// A scratch directory for one test, removed when the value is released.
final class ScratchDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-sqlite-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}

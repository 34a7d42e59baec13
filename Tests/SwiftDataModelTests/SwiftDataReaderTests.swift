import DataModel
import Linting
import SourceConsistency
import SwiftDataModel
import Testing

/// The SwiftData reader: `@Model` classes in, the `Model` the rules check out.
@Suite struct SwiftDataReaderTests {
    private func model(_ sources: String..., cloudKit: Bool = false) throws -> Model {
        let files = sources.enumerated().map { SwiftSourceFile(path: "Sources/App/File\($0.offset).swift", text: $0.element) }
        let read = SwiftDataReader(usesCloudKit: cloudKit).read(files: files, name: "Sources/App")
        #expect(read.problems.isEmpty, "\(read.problems)")
        return try #require(read.model)
    }

    @Test func storedPropertiesBecomeAttributesOfTheirSwiftTypes() throws {
        let model = try model("""
            import SwiftData

            @Model
            final class Item {
                var title: String = "Untitled"
                var done: Bool = false
                var count: Int = 3
                var small: Int16 = -2
                var medium: Int32?
                var tiny: UInt8 = 0
                var ratio: Double = 0.5
                var weight: Float = 1
                var price: Decimal = 0
                var created: Date = Date.now
                var blob: Data?
                var id: UUID = UUID()
                var link: URL?
                var tags: [String] = []
                var status: Status = .open
                var inferred = 12
                var computed: Int { count * 2 }
                @Transient var scratch: String = ""
                static var shared: Int = 0
                var observed: Int = 0 { didSet { print(observed) } }
            }
            """)
        let item = try #require(model.entity(named: "Item"))
        let types = Dictionary(uniqueKeysWithValues: item.attributes.map { ($0.name, $0.attributeType) })
        #expect(types == [
            "title": .string, "done": .boolean, "count": .integer64, "small": .integer16, "medium": .integer32,
            "tiny": .integer16, "ratio": .double, "weight": .float, "price": .decimal, "created": .date,
            "blob": .binary, "id": .uuid, "link": .uri, "tags": .composite, "status": .composite,
            "inferred": .integer64, "observed": .integer64,
        ])
        #expect(item.attributes.map(\.name) == [
            "title", "done", "count", "small", "medium", "tiny", "ratio", "weight", "price", "created", "blob",
            "id", "link", "tags", "status", "inferred", "observed",
        ])
        let byName = Dictionary(uniqueKeysWithValues: item.attributes.map { ($0.name, $0) })
        #expect(byName["title"]?.defaultValueString == "Untitled")
        #expect(byName["done"]?.defaultValueString == "NO")
        #expect(byName["small"]?.defaultValueString == "-2")
        #expect(byName["created"]?.defaultValueExpression == "Date.now")
        #expect(byName["created"]?.hasDefaultValue == true)
        #expect(byName["medium"]?.isOptional == true)
        #expect(byName["medium"]?.hasDefaultValue == false)
        #expect(byName["title"]?.isOptional == false)
        // Located at the property's name, in Swift terms.
        #expect(byName["title"]?.location == SourceLocation(file: "Sources/App/File0.swift", line: 5, column: 9))
        #expect(item.location == SourceLocation(file: "Sources/App/File0.swift", line: 4, column: 13))
        #expect(model.origin == .swiftData)
        #expect(model.usedWithCloudKit == false)
    }

    @Test func attributeOptionsMapToTheirCoreDataSettings() throws {
        let model = try model("""
            @Model class Photo {
                @Attribute(.unique) var name: String
                @Attribute(.externalStorage) var image: Data?
                @Attribute(.transformable(by: ColorTransformer.self)) var tint: UIColor?
                @Attribute(originalName: "caption", hashModifier: "v2") var title: String?
                @Attribute(.ephemeral) var progress: Double = 0
                init() {}
            }
            """)
        let photo = try #require(model.entity(named: "Photo"))
        let byName = Dictionary(uniqueKeysWithValues: photo.attributes.map { ($0.name, $0) })
        #expect(photo.uniquenessConstraints.map(\.propertyNames) == [["name"]])
        #expect(byName["image"]?.allowsExternalBinaryDataStorage == true)
        #expect(byName["tint"]?.attributeType == .transformable)
        #expect(byName["tint"]?.valueTransformerName == "ColorTransformer")
        #expect(byName["title"]?.renamingIdentifier == "caption")
        #expect(byName["title"]?.versionHashModifier == "v2")
        #expect(byName["progress"]?.isTransient == true)
    }

    @Test func relationshipsTakeTheirDeleteRuleCountsAndInverse() throws {
        let model = try model("""
            @Model class Album {
                @Relationship(deleteRule: .cascade, minimumModelCount: 1, maximumModelCount: 50, inverse: \\Photo.album)
                var photos: [Photo] = []
                var cover: Photo?
            }
            """, """
            @Model class Photo {
                var album: Album?
                var owner: Person
            }
            @Model class Person {
                var name: String = ""
            }
            """)
        let album = try #require(model.entity(named: "Album"))
        let photos = try #require(album.relationships.first { $0.name == "photos" })
        #expect(photos.destinationEntityName == "Photo")
        #expect(photos.isToMany && photos.isOptional)
        #expect(photos.deletionRule == .cascade)
        #expect(photos.minCount == 1 && photos.maxCount == 50)
        #expect(photos.inverseName == "album")
        // The documented default delete rule.
        let cover = try #require(album.relationships.first { $0.name == "cover" })
        #expect(cover.deletionRule == .nullify && !cover.isToMany && cover.isOptional)
        // The inverse written on one side is the other side's too.
        let photo = try #require(model.entity(named: "Photo"))
        let albumBack = try #require(photo.relationships.first { $0.name == "album" })
        #expect(albumBack.inverseName == "photos")
        #expect(albumBack.xmlAttributes["swiftDataInverse"] == "declaredOnOtherSide")
        // Album has two relationships to Photo: cover cannot be paired by SwiftData.
        #expect(cover.inverseName == nil)
        let owner = try #require(photo.relationships.first { $0.name == "owner" })
        #expect(!owner.isOptional)
        #expect(owner.inverseName == nil)
    }

    @Test func oneRelationshipEachWayIsPairedAsSwiftDataDoes() throws {
        let model = try model("""
            @Model class School {
                var students: [Student] = []
            }
            @Model class Student {
                var school: School?
            }
            @Model class Node {
                var parent: Node?
                var children: [Node] = []
            }
            """)
        let students = try #require(model.entity(named: "School")?.relationships.first)
        let school = try #require(model.entity(named: "Student")?.relationships.first)
        #expect(students.inverseName == "school" && school.inverseName == "students")
        #expect(students.xmlAttributes["swiftDataInverse"] == "pairedBySwiftData")
        // A class pointing at itself twice is not paired: which is which cannot be told.
        #expect(model.entity(named: "Node")?.relationships.allSatisfy { $0.inverseName == nil } == true)
        let findings = LintEngine().lint(model).filter { $0.ruleID == "missing_inverse" }
        #expect(findings.map(\.propertyName) == ["parent", "children"])
    }

    @Test func uniqueAndIndexMacrosBecomeConstraintsAndFetchIndexes() throws {
        let model = try model("""
            @Model class Person {
                #Unique<Person>([\\.email], [\\.firstName, \\.lastName])
                #Index<Person>([\\.lastName], [\\.lastName, \\.firstName])
                var firstName: String = ""
                var lastName: String = ""
                var email: String = ""
            }
            """)
        let person = try #require(model.entity(named: "Person"))
        #expect(person.uniquenessConstraints.map(\.propertyNames) == [["email"], ["firstName", "lastName"]])
        #expect(person.fetchIndexes.map { $0.elements.map(\.property) } == [["lastName"], ["lastName", "firstName"]])
        #expect(person.uniquenessConstraints.first?.location == SourceLocation(file: "Sources/App/File0.swift", line: 2, column: 5))
    }

    @Test func aModelSubclassInheritsFromItsModelSuperclass() throws {
        let model = try model("""
            @Model class Animal { var name: String = "" }
            @available(iOS 26, macOS 26, *)
            @Model class Dog: Animal { var breed: String = "" }
            @Model class Cat: NSObject, Identifiable { var lives: Int = 9 }
            """)
        #expect(model.entity(named: "Dog")?.parentEntityName == "Animal")
        #expect(model.entity(named: "Cat")?.parentEntityName == nil)
        #expect(model.entity(named: "Dog").map { model.allAttributes(of: $0).map(\.name) } == ["name", "breed"])
    }

    @Test func aCloudKitModelConfigurationMarksTheModelAsSynced() throws {
        let synced = try model("""
            @Model class Item { var name: String = "" }
            let configuration = ModelConfiguration(schema: schema, cloudKitDatabase: .private("iCloud.com.example"))
            """)
        #expect(synced.usedWithCloudKit)
        #expect(synced.cloudKitEntityNames == ["Item"])
        let local = try model("""
            @Model class Item { var name: String = "" }
            func make() { _ = ModelConfiguration(cloudKitDatabase: .none) }
            """)
        #expect(!local.usedWithCloudKit)
        #expect(try model("@Model class Item { var name: String = \"\" }", cloudKit: true).usedWithCloudKit)
    }

    @Test func aDisableCommentOnTheDeclarationSilencesItsRules() throws {
        let model = try model("""
            @Model class Note {
                // momlint:disable reserved_name
                var description: String = ""
                var hash: Int = 0
            }
            """)
        let findings = LintEngine().lint(model).filter { $0.ruleID == "reserved_name" }
        #expect(findings.map(\.propertyName) == ["hash"])
        #expect(findings.first?.location == SourceLocation(file: "Sources/App/File0.swift", line: 4, column: 9))
    }

    @Test func messagesSpeakSwiftDataForASwiftDataModel() throws {
        let model = try model("""
            @Model class Item {
                @Attribute(.externalStorage) var title: String = ""
                @Relationship(minimumModelCount: 5, maximumModelCount: 2) var parts: [Part] = []
            }
            @Model class Part { var item: Item? }
            """)
        let findings = LintEngine().lint(model)
        // The whole message, so that no XML spelling (`Binary`, `minCount`) is left anywhere in it.
        #expect(findings.filter { $0.ruleID == "external_storage_on_non_binary" }.map(\.message) == [
            "'Item.title' allows external storage but is String, not Data; remove @Attribute(.externalStorage), "
                + "or make it Data if it holds large data",
        ])
        #expect(findings.filter { $0.ruleID == "invalid_relationship_count" }.map(\.message) == [
            "'Item.parts' has minimumModelCount 5 above maximumModelCount 2, so no non-empty value is valid; "
                + "make minimumModelCount at most maximumModelCount (0 means no maximum)",
        ])
    }

    /// Core Data has no unsigned integers: each unsigned property is read as the smallest signed
    /// integer that holds its range (so `UInt16 = 40000` is a valid default) and reported by
    /// `unsigned_integer_attribute` as a warning naming the signed type to declare.
    @Test func unsignedIntegersAreReadAsTheSignedTypeThatHoldsThemAndReported() throws {
        let model = try model("""
            @Model class Meter {
                var tiny: UInt8 = 255
                var port: UInt16 = 40000
                var total: UInt32?
                var hash: UInt64 = 0
                var flags: Swift.UInt = 0
                var signed: Int16 = 0
            }
            """)
        let meter = try #require(model.entity(named: "Meter"))
        #expect(meter.attributes.map(\.attributeType) == [.integer16, .integer32, .integer64, .integer64, .integer64, .integer16])
        let findings = LintEngine().lint(model)
        #expect(!findings.contains { $0.ruleID == "default_value_invalid" }, "\(findings.map(\.message))")
        let unsigned = findings.filter { $0.ruleID == "unsigned_integer_attribute" }
        #expect(unsigned.map(\.propertyName) == ["tiny", "port", "total", "hash", "flags"])
        #expect(unsigned.allSatisfy { $0.severity == .warning })
        #expect(unsigned.map(\.location.line) == [2, 3, 4, 5, 6])
        #expect(unsigned.first?.message == "'Meter.tiny' is 'UInt8', but Core Data stores only signed integers and SwiftData "
            + "does not document how it keeps an unsigned value (up to 255); declare it 'Int16', which holds every UInt8")
        #expect(unsigned[3].message == "'Meter.hash' is 'UInt64', but Core Data stores only signed integers and SwiftData "
            + "does not document how it keeps an unsigned value (up to 18446744073709551615); declare it 'Int64' if its "
            + "values stay below 9223372036854775808, else store it as a String or Decimal")
        #expect(unsigned[1].suggestion == "declare 'Meter.port' as 'Int32'")
        #expect(unsigned[3].suggestion == nil)
    }

    @Test func declarationsInsideIfClausesAreRead() throws {
        // Code shared with platforms without SwiftData wraps the macros in `#if canImport(SwiftData)`.
        let model = try model("""
            #if canImport(SwiftData)
            @Model
            #endif
            final class Metric {
                #if canImport(SwiftData)
                #Unique<Metric>([\\.stableID])
                #endif
                var stableID: UUID?
                var goal: TimeInterval?
                #if canImport(SwiftData)
                @Relationship(deleteRule: .cascade, inverse: \\Session.metric)
                #endif
                var sessions: [Session] = []
            }
            @Model final class Session { var metric: Metric? }
            """)
        let metric = try #require(model.entity(named: "Metric"))
        #expect(metric.uniquenessConstraints.map(\.propertyNames) == [["stableID"]])
        #expect(metric.attributes.first { $0.name == "goal" }?.attributeType == .double)
        #expect(metric.relationships.first?.deletionRule == .cascade)
        #expect(metric.relationships.first?.inverseName == "metric")
    }

    @Test func filesWithoutModelsGiveNoModelAndAPropertyOfUnknownTypeIsNoted() throws {
        let none = SwiftDataReader().read(files: [SwiftSourceFile(path: "A.swift", text: "struct A {}")], name: "A.swift")
        #expect(none.model == nil)
        let untyped = SwiftDataReader().read(
            files: [SwiftSourceFile(path: "B.swift", text: "@Model class B { var total = compute() }")], name: "B.swift")
        #expect(untyped.notes.map(\.message) == [
            "the type of 'B.total' cannot be told without compiling (no type annotation); add one so momlint can check it",
        ])
    }
}

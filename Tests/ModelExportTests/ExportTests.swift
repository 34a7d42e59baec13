import DataModel
import Foundation
import ModelExport
import Testing

/// Paths into the repository, computed from this file so tests run from any directory.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static func data(_ relative: String) throws -> Data { try Data(contentsOf: root.appendingPathComponent(relative)) }

    static let corpus = root.deletingLastPathComponent().appendingPathComponent("shared/corpus/models").path
}

@Suite struct ModelExportTests {
    static func load(_ relative: String) throws -> Model {
        let result = ModelLoader().load(paths: [Repository.path(relative)])
        if let failure = result.failures.first { throw failure }
        return try #require(result.models.first)
    }

    /// The export of `relative`, its file named as a user in the package root would name it.
    static func export(_ relative: String) throws -> (model: ExportedModel, warnings: [ExportProblem]) {
        var (exported, warnings) = try ModelExporter().export(load(relative))
        exported.source.file = exported.source.file.replacingOccurrences(of: Repository.root.path + "/", with: "")
        return (exported, warnings)
    }

    static func validator() throws -> JSONSchemaValidator {
        try JSONSchemaValidator(schema: Repository.data("docs/schemas/model-export.schema.json"))
    }

    @Test func everythingMatchesTheCommittedExport() throws {
        let (exported, warnings) = try Self.export("Fixtures/Models/Everything.xcdatamodel")
        #expect(warnings.isEmpty)
        // Byte for byte, so the committed file is what the command writes.
        let written = String(decoding: try exported.jsonData(), as: UTF8.self) + "\n"
        #expect(written == String(decoding: try Repository.data("Fixtures/Exports/Everything.json"), as: UTF8.self))
    }

    @Test func committedExportConformsToTheSchema() throws {
        let instance = try JSONSerialization.jsonObject(with: Repository.data("Fixtures/Exports/Everything.json"))
        #expect(try Self.validator().errors(in: instance).map(\.description) == [])
    }

    @Test func inheritanceIsResolved() throws {
        let (exported, _) = try Self.export("Fixtures/Models/Everything.xcdatamodel")
        let gadget = try #require(exported.entities.first { $0.name == "Gadget" })
        #expect(gadget.parent == "Item")
        #expect(gadget.ancestors == ["Item"])
        #expect(gadget.attributes.map(\.name) == ["title", "count", "createdAt", "photo", "colors", "titleUppercased", "address", "voltage"])
        #expect(gadget.attributes.first { $0.name == "voltage" }?.declaredBy == "Gadget")
        #expect(gadget.attributes.first { $0.name == "count" }?.declaredBy == "Item")
        #expect(gadget.relationships.map(\.name) == ["owner", "parts", "cache"])
        #expect(gadget.uniquenessConstraints.map(\.properties) == [["title", "owner"], ["createdAt"]])
        #expect(gadget.uniquenessConstraints.map(\.declaredBy) == ["Item", "Item"])
        let item = try #require(exported.entities.first { $0.name == "Item" })
        #expect(item.isAbstract)
        #expect(item.subentities == ["Gadget"])
    }

    @Test func valuesAreTyped() throws {
        let (exported, _) = try Self.export("Fixtures/Models/Everything.xcdatamodel")
        let item = try #require(exported.entities.first { $0.name == "Item" })
        let count = try #require(item.attributes.first { $0.name == "count" })
        #expect(count.defaultValue == .integer(0) && count.minimum == .integer(-5) && count.maximum == .integer(500))
        #expect(!count.isOptional)
        let createdAt = try #require(item.attributes.first { $0.name == "createdAt" })
        #expect(createdAt.defaultValue == .string("2023-01-01T00:00:00Z"))
        #expect(createdAt.maximum == .string("2032-09-09T01:46:40Z"))
        let title = try #require(item.attributes.first { $0.name == "title" })
        #expect(title.minimum == .integer(1) && title.maximum == .integer(80) && title.regularExpression == "[A-Z].*")
        let parts = try #require(item.relationships.first { $0.name == "parts" })
        #expect(parts.isToMany && parts.isOrdered && parts.minCount == 1 && parts.maxCount == 10)
        #expect(parts.deleteRule == .cascade && parts.inverse == "item" && parts.inverseDeclaredBy == "Part")
        let person = try #require(exported.entities.first { $0.name == "Person" })
        #expect(person.relationships.first?.maxCount == nil, "an unbounded to-many has no maxCount")
        #expect(person.relationships.first?.deleteRule == .deny)
    }

    @Test func inverseDeclaredOnAnAncestorIsResolved() throws {
        let model = try ModelLoader().model(fromContents: Array(Self.contents("""
            <entity name="Owner"><relationship name="pets" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Dog" inverseName="owner" inverseEntity="Dog"/></entity>
            <entity name="Animal" isAbstract="YES"><relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Owner" inverseName="pets" inverseEntity="Owner"/></entity>
            <entity name="Dog" parentEntity="Animal"/>
            """).utf8), file: "Pets/contents")
        let (exported, _) = try ModelExporter().export(model)
        let pets = try #require(exported.entities.first?.relationships.first)
        #expect(pets.inverse == "owner" && pets.inverseDeclaredBy == "Animal")
    }

    @Test func unreadableValuesAreLeftOutWithAWarning() throws {
        let model = try ModelLoader().model(fromContents: Array(Self.contents("""
            <entity name="Settings">
                <attribute name="codec" attributeType="Integer 32" defaultValueString="YES"/>
                <attribute name="scratch" optional="YES" transient="YES"/>
            </entity>
            """).utf8), file: "Settings/contents")
        let (exported, warnings) = try ModelExporter().export(model)
        #expect(exported.entities[0].attributes[0].defaultValue == nil)
        #expect(exported.entities[0].attributes[1].type == "Undefined", "Xcode writes no attributeType for Undefined")
        #expect(warnings.map(\.description) == [
            "Settings/contents:4:5: warning: 'Settings.codec' has default value 'YES', which is not a valid Integer 32 value; the export leaves it out",
        ])
    }

    @Test func inexpressibleElementsFailWithEveryPlace() throws {
        let model = try ModelLoader().model(fromContents: Array(Self.contents("""
            <entity name="A">
                <attribute name="x" attributeType="Integer 128"/>
                <relationship name="b" optional="YES" maxCount="1" deletionRule="Explode" destinationEntity="A"/>
                <relationship name="c" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Missing"/>
            </entity>
            <entity name="B" parentEntity="Nowhere"/>
            """).utf8), file: "Bad/contents")
        let error = try #require(throws: ModelExportError.self) { try ModelExporter().export(model) }
        #expect(error.problems.map(\.description) == [
            "Bad/contents:4:5: error: 'A.x' has attribute type 'Integer 128', which Core Data does not know",
            "Bad/contents:5:5: error: 'A.b' has delete rule 'Explode', which Core Data does not know; use Nullify, Cascade, Deny or No Action",
            "Bad/contents:6:5: error: 'A.c' points to 'Missing', which the model does not have",
            "Bad/contents:8:1: error: 'B' names parent entity 'Nowhere', which the model does not have",
        ])
    }

    @Test func everyCorpusModelExportsAndConformsToTheSchema() throws {
        guard FileManager.default.fileExists(atPath: Repository.corpus) else { return }
        let validator = try Self.validator()
        var exported = 0
        for outcome in ModelLoader().load(paths: [Repository.corpus]).outcomes {
            guard case .model(let model) = outcome else { continue }
            let document = try ModelExporter().export(model).model.jsonData()
            let errors = try validator.errors(in: JSONSerialization.jsonObject(with: document))
            #expect(errors.isEmpty, "\(model.file): \(errors.prefix(3))")
            exported += 1
        }
        #expect(exported >= 60)
    }

    @Test func theValidatorCatchesWhatItShould() throws {
        let validator = try Self.validator()
        var document = try #require(JSONSerialization.jsonObject(with: Repository.data("Fixtures/Exports/Everything.json")) as? [String: Any])
        document["schemaVersion"] = 2
        document["extra"] = true
        var entities = try #require(document["entities"] as? [[String: Any]])
        entities[0]["isAbstract"] = "yes"
        entities[0].removeValue(forKey: "name")
        document["entities"] = entities
        let errors = try validator.errors(in: document).map(\.description).sorted()
        #expect(errors == [
            "$.entities[0].isAbstract: expected boolean, found string",
            "$.entities[0]: missing required 'name'",
            "$.schemaVersion: expected 1",
            "$: 'extra' is not allowed here",
        ])
    }

    static func contents(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
        \(body)
        </model>
        """
    }
}

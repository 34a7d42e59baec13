import DataModel
import Foundation
import Linting
import SourceConsistency
import SwiftDataModel
import Testing

/// `VersionedSchema`s: each version is a schema of its own; the latest is linted, and classes of
/// one name never merge.
@Suite struct SwiftDataVersionedSchemaTests {
    private func read(_ sources: String...) -> (model: Model?, problems: [SourceProblem], notes: [LoadNote]) {
        let files = sources.enumerated().map { SwiftSourceFile(path: "Sources/App/File\($0.offset).swift", text: $0.element) }
        return SwiftDataReader().read(files: files, name: "Sources/App")
    }

    private func model(_ sources: String...) throws -> Model {
        let files = sources.enumerated().map { SwiftSourceFile(path: "Sources/App/File\($0.offset).swift", text: $0.element) }
        let read = SwiftDataReader().read(files: files, name: "Sources/App")
        #expect(read.problems.isEmpty && read.notes.isEmpty, "\(read.problems) \(read.notes)")
        return try #require(read.model)
    }

    /// The case: V1 and V2 each declare `Item.owner` and `Owner.items`. Merged, they gave
    /// two `Item` entities and `missing_inverse` on the V2 classes; now only V2 is linted (the
    /// last schema the migration plan lists), so only its own planted mistake is reported, and
    /// V1's `description` (renamed in V2) is not.
    @Test func theFixtureLintsOnlyTheLatestVersion() throws {
        let folder = SwiftDataFixtureTests.root.appendingPathComponent("Versioned").path
        var run = LintRun(reports: [], loadFailures: [], notes: [])
        run.lintSwiftData(in: [folder], engine: LintEngine())
        #expect(run.loadFailures.isEmpty, "\(run.loadFailures)")
        #expect(run.notes.isEmpty, "\(run.notes)")
        let model = try #require(run.reports.first?.model)
        #expect(model.xmlAttributes[SwiftDataReader.versionedSchemaKey] == "SchemaV2")
        #expect(model.entities.map(\.name) == ["Item", "Owner"])
        #expect(model.entity(named: "Item")?.attributes.map(\.name) == ["title", "summary", "priority"])
        #expect(model.entity(named: "Item")?.relationships.first?.inverseName == "items")
        #expect(run.findings.map { "\($0.ruleID) \(URL(fileURLWithPath: $0.location.file).lastPathComponent):\($0.location.line):\($0.location.column)" }
            == ["unsigned_integer_attribute SchemaV2.swift:17:13"])
    }

    static let versionOne = """
        enum SchemaV1: VersionedSchema {
            static var versionIdentifier = Schema.Version(3, 0, 0)
            static var models: [any PersistentModel.Type] { [Item.self] }
            @Model final class Item { var one: String = "" }
        }
        """
    static let versionTwo = """
        enum SchemaV2: VersionedSchema {
            static let versionIdentifier: Schema.Version = .init(2, 0, 0)
            static var models: [any PersistentModel.Type] { [Item.self] }
        }
        extension SchemaV2 {
            @Model final class Item { var two: String = "" }
        }
        """

    private func attributeNames(_ model: Model) -> [String] {
        model.entities.flatMap { entity in entity.attributes.map { "\(entity.name).\($0.name)" } }
    }

    /// A migration plan's order wins over version identifiers (V1 claims 3.0.0 here).
    @Test func theLastSchemaOfTheMigrationPlanIsTheLatest() throws {
        let model = try model(Self.versionOne, Self.versionTwo, """
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                static var stages: [MigrationStage] { [] }
            }
            """)
        #expect(attributeNames(model) == ["Item.two"])
        #expect(model.xmlAttributes[SwiftDataReader.versionedSchemaKey] == "SchemaV2")
    }

    @Test func withoutAPlanTheHighestVersionIdentifierIsTheLatest() throws {
        #expect(attributeNames(try model(Self.versionOne, Self.versionTwo)) == ["Item.one"])
    }

    @Test func withNeitherTheLastNameInNaturalOrderIsTheLatestWithANote() throws {
        let read = read("""
            enum SchemaV2: VersionedSchema {
                @Model final class Item { var two: String = "" }
            }
            enum SchemaV10: VersionedSchema {
                @Model final class Item { var ten: String = "" }
            }
            """)
        let model = try #require(read.model)
        #expect(attributeNames(model) == ["Item.ten"])
        #expect(read.notes.map(\.description) == [
            "Sources/App/File0.swift:4:6: note: no SchemaMigrationPlan lists the versioned schemas and not every one "
                + "declares a versionIdentifier, so momlint takes 'SchemaV10', the last by name, as the current version "
                + "and lints only its models",
        ])
    }

    /// Current classes at the top level, the shipped version kept in `SchemaV1`: the latest
    /// version (`SchemaV2`) names the top-level classes, and the unchanged `Tag` by its V1 path.
    @Test func theLatestVersionMayNameTopLevelAndOlderClasses() throws {
        let model = try model("""
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, Tag.self] }
                @Model final class Item { var old: String = ""; var tags: [Tag] = [] }
                @Model final class Tag { var name: String = ""; var items: [Item] = [] }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, SchemaV1.Tag.self] }
            }
            """, """
            @Model final class Item { var new: String = "" }
            @Model final class Unversioned { var note: String = "" }
            """)
        #expect(attributeNames(model) == ["Item.new", "Tag.name", "Unversioned.note"])
    }

    /// Two classes of one name in what is linted: a note naming both, and the first kept, so no
    /// rule sees a merged entity.
    @Test func classesOfOneNameGiveANoteAndAreNeverMerged() throws {
        let read = read("""
            @Model final class Item { var first: String = "" }
            """, """
            enum Fixtures {
                @Model final class Item { var second: String = "" }
            }
            """)
        let model = try #require(read.model)
        #expect(attributeNames(model) == ["Item.first"])
        #expect(read.notes.map(\.description) == [
            "Sources/App/File1.swift:2:24: note: 'Item' is declared as a @Model class 2 times (Sources/App/File0.swift:1:20, "
                + "Sources/App/File1.swift:2:24); SwiftData names an entity by its class, so one schema cannot hold both: "
                + "momlint lints the first. Keep each version's classes in its own VersionedSchema, or pass the folder of "
                + "one schema",
        ])
        #expect(LintEngine().lint(model).isEmpty)
    }
}

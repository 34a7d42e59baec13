import DataModel
import Foundation
import Linting
import ModelDiff
import SourceConsistency
import SwiftDataModel
import Testing

/// `Fixtures/SwiftData/Versions/<rule>/Mistake` and `/Corrected`: an app per SwiftData migration
/// rule with the mistake, and its corrected twin, linted as `momlint lint --swiftdata` lints them
/// (git `HEAD` as the base, or the lock file beside the folder); and `Fixtures/SwiftData/Reachable`,
/// the two shapes of public apps that were once false `unknown_destination` errors.
@Suite struct SwiftDataMigrationFixtureTests {
    static let versions = SwiftDataFixtureTests.root.appendingPathComponent("Versions")

    static func lint(_ folder: String) -> LintRun {
        var run = LintRun(reports: [], loadFailures: [], notes: [])
        run.lintSwiftData(in: [folder], engine: LintEngine(), versionBase: .head)
        return run
    }

    /// `rule file:line:column`, the file relative to the folder.
    static func lines(_ run: LintRun, in folder: String) -> [String] {
        run.findings.map { finding in
            let file = finding.location.file.hasPrefix(folder + "/")
                ? String(finding.location.file.dropFirst(folder.count + 1)) : finding.location.file
            return "\(finding.ruleID) \(file):\(finding.location.line):\(finding.location.column)"
        }.sorted()
    }

    /// Each mistake, reported by its rule alone, at the Swift line and column of what to change.
    static let mistakes: [String: [String]] = [
        "schema_versions_identical": ["schema_versions_identical Schemas.swift:34:70"],
        "schema_version_uses_live_model": ["schema_version_uses_live_model Schemas.swift:9:54"],
        "migration_stage_not_inferable": ["migration_stage_not_inferable Schemas.swift:28:13"],
        "migration_plan_incomplete": [
            "migration_plan_incomplete TasksApp.swift:13:53", "migration_plan_incomplete TasksApp.swift:6:85",
        ],
        "schema_version_identifier_reused": ["schema_version_identifier_reused Schemas.swift:19:16"],
        "shipped_version_modified": ["shipped_version_modified Schemas.swift:12:17"],
    ]

    @Test func thereIsAFixtureAppForEverySwiftDataMigrationRule() {
        let rules = RuleCatalogue.all.filter { $0.init().asSchemaVersionsRule != nil }.map { $0.description.id }
        #expect(Set(rules) == Set(Self.mistakes.keys))
    }

    @Test(arguments: mistakes.keys.sorted())
    func theMistakeIsReportedByItsRule(_ rule: String) {
        let folder = Self.versions.appendingPathComponent("\(rule)/Mistake").path
        let run = Self.lint(folder)
        #expect(run.loadFailures.isEmpty, "\(run.loadFailures)")
        #expect(run.notes.isEmpty, "\(run.notes)")
        #expect(Self.lines(run, in: folder) == Self.mistakes[rule], "\(run.findings.map(\.message))")
    }

    @Test(arguments: mistakes.keys.sorted())
    func theCorrectedTwinIsSilent(_ rule: String) {
        let folder = Self.versions.appendingPathComponent("\(rule)/Corrected").path
        let run = Self.lint(folder)
        #expect(run.loadFailures.isEmpty, "\(run.loadFailures)")
        #expect(run.notes.isEmpty, "\(run.notes)")
        #expect(run.findings.isEmpty, "\(run.findings.map(\.message))")
    }

    /// The shipped version's hashes come from the lock file beside the folder; the other
    /// corrected apps are compared with git `HEAD` (where they are committed unchanged).
    @Test func theLockFileIsTheBaseBesideTheFolder() throws {
        let folder = Self.versions.appendingPathComponent("shipped_version_modified/Mistake").path
        let base = try #require(try SwiftDataShippedVersions.base(of: folder, at: .head))
        #expect(base.name == "Mistake.momlint-lock.json")
        #expect(base.entityHashes["SchemaV1"]?["Movie"]?.base64 == "91/JXNMK/owX01pywch/pjIdH6KOhJGlenQkEN9nVuM=")
        // --since none compares nothing.
        var run = LintRun(reports: [], loadFailures: [], notes: [])
        run.lintSwiftData(in: [folder], engine: LintEngine(), versionBase: .none)
        #expect(run.findings.isEmpty)
    }

    /// The lock the fixture holds is the one `versions --lock` writes for the corrected app.
    @Test func theLockRecordsEachVersionsHashes() throws {
        let folder = Self.versions.appendingPathComponent("shipped_version_modified/Corrected").path
        let versions = try #require(SwiftDataVersionsReader().read(folder: folder).versions)
        let written = try SwiftDataShippedVersions.lock(of: versions).encoded()
        let committed = try Data(contentsOf: URL(fileURLWithPath: folder + ".momlint-lock.json"))
        #expect(written == committed)
    }

    // MARK: The two false errors

    /// bradleymackey/vault-ios's V3 uses a model class its `models` does not list; muukii/Tone.app
    /// writes inverse key paths with the schema's full path (`\Schemas.V3.Item.tags`). Both build
    /// in SwiftData; both were `unknown_destination` errors. The fixture has both shapes.
    @Test func theReachableFixtureLintsClean() throws {
        let folder = SwiftDataFixtureTests.root.appendingPathComponent("Reachable").path
        let run = Self.lint(folder)
        #expect(run.loadFailures.isEmpty, "\(run.loadFailures)")
        #expect(run.notes.isEmpty, "\(run.notes)")
        #expect(run.findings.isEmpty, "\(run.findings.map(\.message))")
        let model = try #require(run.reports.first?.model)
        #expect(model.xmlAttributes[SwiftDataReader.versionedSchemaKey] == "V2")
        #expect(model.entities.map(\.name) == ["Item", "Tag", "Details"])
        let items = try #require(model.entity(named: "Tag")?.relationships.first { $0.name == "items" })
        #expect(items.inverseEntityName == "Item" && items.inverseName == "tags")
        let details = try #require(model.entity(named: "Item")?.relationships.first { $0.name == "details" })
        #expect(details.destinationEntityName == "Details" && details.inverseEntityName == "Details" && details.inverseName == "item")
    }

    @Test func aClassReachedThroughARelationshipBelongsToTheVersion() throws {
        let folder = SwiftDataFixtureTests.root.appendingPathComponent("Reachable").path
        let versions = try #require(SwiftDataVersionsReader().read(folder: folder).versions)
        #expect(versions.ordered.map(\.name) == ["V1", "V2"])
        #expect(versions.version(named: "V1")?.model.entities.map(\.name) == ["Item", "Tag"])
        #expect(versions.version(named: "V2")?.model.entities.map(\.name) == ["Item", "Tag", "Details"])
        #expect(versions.version(named: "V2")?.liveClasses.isEmpty == true)
    }

    /// A class reached through a relationship that is declared outside every version is a live
    /// class of that version, named with the relationship that reaches it.
    @Test func aLiveClassReachedThroughARelationshipIsNamedWithIt() throws {
        let source = """
            @Model final class Owner { var name: String = "" }
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self] }
                @Model final class Item { @Relationship(inverse: \\Owner.items) var owner: Owner? }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self] }
                @Model final class Item { var owner: Owner?; var title: String = "" }
            }
            """
        let read = SwiftDataVersionsReader().read(files: [SwiftSourceFile(path: "App/V.swift", text: source)], folder: "App")
        let versions = try #require(read.versions)
        let live = try #require(versions.version(named: "SchemaV1")?.liveClasses.first)
        #expect(live.name == "Owner" && live.reachedThrough == "Item.owner" && live.listedAt == nil)
        #expect(versions.version(named: "SchemaV1")?.model.entities.map(\.name) == ["Item", "Owner"])
    }

    /// A `models` entry that names no class of the sources leaves the version out of every
    /// comparison (with a note), instead of comparing a model that lacks it.
    @Test func aVersionListingAnUnknownClassIsNotCompared() throws {
        let source = """
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, Elsewhere.self] }
                @Model final class Item { var title: String = "" }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self, Elsewhere.self] }
                @Model final class Item { var title: String = "" }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
            }
            """
        let read = SwiftDataVersionsReader().read(files: [SwiftSourceFile(path: "App/V.swift", text: source)], folder: "App")
        let versions = try #require(read.versions)
        #expect(read.notes.count == 2)
        #expect(versions.versions.allSatisfy { !$0.isComplete })
        #expect(LintEngine().lintSchemaVersions(versions).isEmpty)
    }

    /// Stages written in every way the issue names: inline, through static properties, and as
    /// arrays of them joined with `+`; and the schema of a container made from a variable.
    @Test func stagesAndContainersAreReadInEveryForm() throws {
        let source = """
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [V1.self, V2.self, V3.self, V4.self] }
                static var stages: [MigrationStage] { early + [v3toV4] }
                static let early: [MigrationStage] = [.lightweight(fromVersion: V1.self, toVersion: V2.self), v2toV3]
                static let v2toV3 = MigrationStage.custom(fromVersion: V2.self, toVersion: V3.self, willMigrate: nil, didMigrate: { _ in })
            }
            extension Plan {
                static var v3toV4: MigrationStage { .custom(fromVersion: V3.self, toVersion: V4.self, willMigrate: { _ in }, didMigrate: nil) }
            }
            enum V1: VersionedSchema { static var versionIdentifier = Schema.Version(1, 0, 0); static var models: [any PersistentModel.Type] { [A.self] }; @Model final class A { var a: Int = 1 } }
            enum V2: VersionedSchema { static var versionIdentifier = Schema.Version(2, 0, 0); static var models: [any PersistentModel.Type] { [A.self] }; @Model final class A { var b: Int = 1 } }
            enum V3: VersionedSchema { static var versionIdentifier = Schema.Version(3, 0, 0); static var models: [any PersistentModel.Type] { [A.self] }; @Model final class A { var c: Int = 1 } }
            enum V4: VersionedSchema { static var versionIdentifier = Schema.Version(4, 0, 0); static var models: [any PersistentModel.Type] { [A.self] }; @Model final class A { var d: Int = 1 } }
            func container() throws -> ModelContainer {
                let schema = Schema(versionedSchema: V4.self)
                return try ModelContainer(for: schema, migrationPlan: Plan.self)
            }
            """
        let read = SwiftDataVersionsReader().read(files: [SwiftSourceFile(path: "App/V.swift", text: source)], folder: "App")
        #expect(read.notes.isEmpty, "\(read.notes)")
        let versions = try #require(read.versions)
        let stages = try #require(versions.plan?.stages)
        #expect(stages.map { "\($0.kind.rawValue) \($0.from?.name ?? "") \($0.to?.name ?? "") \($0.hasWillMigrate) \($0.hasDidMigrate)" } == [
            "lightweight V1 V2 false false", "custom V2 V3 false true", "custom V3 V4 true false",
        ])
        #expect(versions.containers.map { "\($0.schema?.name ?? "") \($0.plan?.name ?? "")" } == ["V4 Plan"])
        #expect(LintEngine().lintSchemaVersions(versions).isEmpty)
    }

    /// `// momlint:disable rule_id` on the declaration a finding points at silences it, as for
    /// the other SwiftData findings; a configuration without the rule runs nothing of it.
    @Test func aDisableCommentAndTheConfigurationSilenceVersionFindings() throws {
        func source(_ comment: String) -> String {
            """
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Habit.self] }
                @Model final class Habit { var name: String = "" }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier = Schema.Version(2, 0, 0)
                static var models: [any PersistentModel.Type] { [Habit.self] }
                @Model final class Habit {
                    var name: String = ""
                    \(comment)
                    var targetPerWeek: Int
                }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
            }
            """
        }
        func findings(_ comment: String, engine: LintEngine = LintEngine()) throws -> [String] {
            let read = SwiftDataVersionsReader().read(files: [SwiftSourceFile(path: "App/V.swift", text: source(comment))], folder: "App")
            return engine.lintSchemaVersions(try #require(read.versions)).map(\.ruleID)
        }
        #expect(try findings("") == ["migration_stage_not_inferable"])
        #expect(try findings("// momlint:disable migration_stage_not_inferable").isEmpty)
        #expect(try findings("// momlint:disable missing_inverse") == ["migration_stage_not_inferable"])
        let others = RuleCatalogue.all.filter { $0.description.id != "migration_stage_not_inferable" }
        #expect(try findings("", engine: LintEngine(rules: others)).isEmpty)
        // A configured severity governs the finding.
        let warning = LintEngine(severityOverrides: ["migration_stage_not_inferable": .warning])
        let read = SwiftDataVersionsReader().read(files: [SwiftSourceFile(path: "App/V.swift", text: source(""))], folder: "App")
        #expect(warning.lintSchemaVersions(try #require(read.versions)).map(\.severity) == [.warning])
    }

    /// `Schema.Version(1, 0)` and `(1, 0, 0)` are one identifier: reused, not out of order.
    @Test func identifiersAreComparedWithoutTrailingZeros() throws {
        let source = """
            enum SchemaV1: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0, 0)
                static var models: [any PersistentModel.Type] { [Item.self] }
                @Model final class Item { var title: String = "" }
            }
            enum SchemaV2: VersionedSchema {
                static var versionIdentifier = Schema.Version(1, 0)
                static var models: [any PersistentModel.Type] { [Item.self] }
                @Model final class Item { var title: String = ""; var done: Bool = false }
            }
            enum Plan: SchemaMigrationPlan {
                static var schemas: [any VersionedSchema.Type] { [SchemaV1.self, SchemaV2.self] }
                static var stages: [MigrationStage] { [.lightweight(fromVersion: SchemaV1.self, toVersion: SchemaV2.self)] }
            }
            """
        let read = SwiftDataVersionsReader().read(files: [SwiftSourceFile(path: "App/V.swift", text: source)], folder: "App")
        let findings = LintEngine().lintSchemaVersions(try #require(read.versions))
        #expect(findings.map(\.ruleID) == ["schema_version_identifier_reused"])
    }
}

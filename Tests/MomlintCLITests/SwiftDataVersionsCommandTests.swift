import Foundation
import Testing

/// `momlint versions --swiftdata`, `diff --swiftdata` and `lint --swiftdata` over a folder's
/// versioned schemas, as a user runs them; the git base in a real repository.
@Suite(.enabled(if: Workspace.momlintIsBuilt)) struct SwiftDataVersionsCommandTests {
    static let fixtures = MomlintProcess.packageRoot.path + "/Fixtures/SwiftData"

    @Test func versionsListsTheVersionsInPlanOrderWithEachStagesVerdict() throws {
        let output = try MomlintProcess.run(["versions", "--swiftdata", Self.fixtures + "/Versions/migration_stage_not_inferable/Mistake"])
        #expect(output.status == 0, "\(output.standardError)")
        let lines = output.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 6, "\(output.standardOutput)")
        #expect(lines[0].hasSuffix("(2 VersionedSchemas, in the order of 'HabitMigrationPlan.schemas')"))
        #expect(lines[2].hasPrefix("  SchemaV1  1.0.0       ") && lines[2].hasSuffix("  Habit"))
        #expect(lines[3].hasPrefix("  SchemaV2  2.0.0       "))
        #expect(lines[4] == "stages of 'HabitMigrationPlan':")
        #expect(lines[5].hasPrefix("  lightweight SchemaV1 → SchemaV2: fails: attribute 'Habit.targetPerWeek' added as required with no default value (rows written by 'SchemaV1' have no value for it"))
    }

    @Test func versionsNamesIdenticalVersionsAndWritesJSON() throws {
        let folder = Self.fixtures + "/Versions/schema_versions_identical/Mistake"
        let table = try MomlintProcess.run(["versions", "--swiftdata", folder])
        #expect(table.standardOutput.contains("identical to Core Data: 'SchemaV1', 'SchemaV2' (equal digests)\n"))
        let json = try MomlintProcess.run(["versions", "--swiftdata", folder, "--format", "json"])
        #expect(json.status == 0)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(document["latest"] as? String == "SchemaV2")
        #expect(document["identical"] as? [[String]] == [["SchemaV1", "SchemaV2"]])
        let versions = try #require(document["versions"] as? [[String: Any]])
        #expect(versions.map { $0["name"] as? String } == ["SchemaV1", "SchemaV2"])
        #expect(versions[0]["versionHashesDigest"] as? String == versions[1]["versionHashesDigest"] as? String)
    }

    @Test func diffComparesTwoVersionsOfTheFolder() throws {
        let folder = Self.fixtures + "/Versions/migration_plan_incomplete/Corrected"
        let output = try MomlintProcess.run(["diff", "--swiftdata", folder, "SchemaV1", "SchemaV3"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput == """
            'SchemaV1' → 'SchemaV3': lightweight migration (2 changes)
              + attribute 'Task.done' added  [hash changes, lightweight]
              + attribute 'Task.dueDate' added  [hash changes, lightweight]

            """)
        let unknown = try MomlintProcess.run(["diff", "--swiftdata", folder, "SchemaV1", "SchemaV9"])
        #expect(unknown.status == 2)
        #expect(unknown.standardError.contains("no VersionedSchema named 'SchemaV9'"))
        #expect(unknown.standardError.contains("'SchemaV1', 'SchemaV2', 'SchemaV3'"))
        let noVersions = try MomlintProcess.run(["versions", "--swiftdata", Self.fixtures + "/CleanApp"])
        #expect(noVersions.status == 2)
        #expect(noVersions.standardError.contains("no VersionedSchema"))
    }

    /// A shipped version edited in a git work tree: `lint` compares it with `HEAD`, `--since REV`
    /// with that revision, `--since none` with nothing; `versions --lock` freezes the hashes.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git")))
    func lintComparesShippedVersionsWithGitAndTheLockFile() throws {
        let repository = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-swiftdata-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: repository) }
        let app = repository.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        let shipped = try String(contentsOfFile: Self.fixtures + "/Versions/shipped_version_modified/Corrected/Schemas.swift", encoding: .utf8)
        try shipped.write(to: app.appendingPathComponent("Schemas.swift"), atomically: true, encoding: .utf8)
        try MigrationPreCommitTests.git(["init", "-q"], in: repository)
        try MigrationPreCommitTests.git(["add", "."], in: repository)
        try MigrationPreCommitTests.git(["commit", "-q", "-m", "v1"], in: repository)
        #expect(try MomlintProcess.run(["lint", "--swiftdata", "App"], in: repository).status == 0)
        // The shipped SchemaV1 edited in place.
        let edited = try String(contentsOfFile: Self.fixtures + "/Versions/shipped_version_modified/Mistake/Schemas.swift", encoding: .utf8)
        try edited.write(to: app.appendingPathComponent("Schemas.swift"), atomically: true, encoding: .utf8)
        let head = try MomlintProcess.run(["lint", "--swiftdata", "App"], in: repository)
        #expect(head.status == 1)
        #expect(head.standardOutput.contains("App/Schemas.swift:14:13: error: 'SchemaV1' is not the latest version but changed since HEAD: model class 'Movie' no longer hashes as shipped ('Movie.year' optionality 'required' → 'optional')"),
                "\(head.standardOutput)")
        #expect(try MomlintProcess.run(["lint", "--swiftdata", "App", "--since", "none"], in: repository).status == 0)
        try MigrationPreCommitTests.git(["commit", "-q", "-am", "edit"], in: repository)
        let since = try MomlintProcess.run(["lint", "--swiftdata", "App", "--since", "HEAD~1"], in: repository)
        #expect(since.status == 1)
        #expect(since.standardOutput.contains("changed since HEAD~1"))
        // The lock written from the edited sources is the new base: nothing differs from it.
        let lock = try MomlintProcess.run(["versions", "--swiftdata", "App", "--lock"], in: repository)
        #expect(lock.status == 0)
        #expect(FileManager.default.fileExists(atPath: repository.appendingPathComponent("App.momlint-lock.json").path))
        #expect(try MomlintProcess.run(["lint", "--swiftdata", "App"], in: repository).status == 0)
    }
}

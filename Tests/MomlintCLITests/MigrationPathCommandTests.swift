import Foundation
import Testing

/// Issue 36, through the built binary: migration paths (`migration.path`, `--migration-path`),
/// one finding per cause, numeric type changes, and every version of a bundle must build. Each
/// example is one of the project's fixtures in `Fixtures/Models/Migrations/`.
@Suite struct MigrationPathCommandTests {
    static let migrations = MigrationCommandTests.migrations

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    // MARK: Every version must build

    /// A mastodon-ios commit wrote `<attribut e name=…>` into a version that was not the current
    /// one. Xcode compiles every version of a bundle, so whichever file of the bundle the lint is
    /// given (pre-commit names the edited one), the malformed version is a load error naming it,
    /// exit 2, and the current version is still linted.
    @Test func aMalformedOlderVersionFailsWhicheverPartOfTheBundleIsNamed() throws {
        let bundle = "\(Self.migrations)/MalformedOlderVersion/Model.xcdatamodeld"
        let error = "\(bundle)/Model.xcdatamodel/contents:4:21: error: malformed XML:"
        for arguments in [[bundle], ["\(bundle)/Model.xcdatamodel/contents"], ["\(bundle)/Model 2.xcdatamodel/contents"],
                          ["\(bundle)/Model 2.xcdatamodel"], [bundle, "--all-versions"],
                          [bundle, "--all-versions", "--migration-path", "stepwise"]] {
            let output = try MomlintProcess.run(["lint"] + arguments)
            #expect(output.status == 2, "\(arguments): \(output.standardError)")
            #expect(output.standardError.components(separatedBy: error).count == 2, "\(arguments): \(output.standardError)")
            #expect(output.standardError.contains("Linted 1 model"), "\(arguments): \(output.standardError)")
            #expect(!output.standardError.contains("not checked"), "\(arguments): \(output.standardError)")
        }
        // A current version that fails too does not hide the older one: both are named.
        let both = try MigrationCommandTests.temporaryFolder(copying: "MalformedOlderVersion")
        defer { try? FileManager.default.removeItem(at: both) }
        let current = both.appendingPathComponent("Model.xcdatamodeld/Model 2.xcdatamodel/contents")
        try (try String(contentsOf: current, encoding: .utf8)).replacingOccurrences(of: "<attribute name=\"title\"", with: "<attribut e name=\"title\"")
            .write(to: current, atomically: true, encoding: .utf8)
        for arguments in [["Model.xcdatamodeld"], ["Model.xcdatamodeld/Model 2.xcdatamodel/contents"],
                          ["--all-versions", "Model.xcdatamodeld/Model 2.xcdatamodel"]] {
            let output = try MomlintProcess.run(["lint"] + arguments, in: both)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.standardError.contains("Model.xcdatamodeld/Model 2.xcdatamodel/contents:5:21: error: malformed XML"), "\(arguments)")
            #expect(output.standardError.contains("Model.xcdatamodeld/Model.xcdatamodel/contents:4:21: error: malformed XML"), "\(arguments)")
        }
        // With every migration rule disabled, the versions are still read.
        let folder = try MigrationCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("no-migration-rules.yml")
        try "disabled_rules: [migration_not_inferable, migration_required_without_default, migration_drops_data, migration_unhashed_change, shipped_version_modified, cloudkit_destructive_change]\n"
            .write(to: config, atomically: true, encoding: .utf8)
        let withoutRules = try MomlintProcess.run(["lint", bundle, "--config", config.path])
        #expect(withoutRules.status == 2, "\(withoutRules.standardError)")
        #expect(withoutRules.standardError.contains(error))
    }

    /// Xcode 3's binary format stays a note for a version not linted, and never hides the
    /// versions after it: on the stepwise path the step it starts is not checked, the next one is.
    @Test func anUnreadableOlderVersionNeverHidesANewerOne() throws {
        let bundle = "\(Self.migrations)/UnreadableOlderVersion/Model.xcdatamodeld"
        let output = try MomlintProcess.run(["lint", bundle, "--all-versions", "--migration-path", "stepwise"])
        #expect(output.status == 0, "\(output.standardOutput)\(output.standardError)")
        #expect(output.standardError.contains("note: migration from 'Model' to 'Model 2' not checked: it is in the binary format"))
        let versions = try MomlintProcess.run(["versions", bundle, "--migration-path", "stepwise"])
        #expect(versions.standardOutput.contains("  Model 2  KE8AdVgO  → 'Model 3': lightweight migration (1 change)\n"),
                "\(versions.standardOutput)")
    }

    // MARK: Migration paths

    /// An app that migrates one version at a time with a mapping model for a step that cannot be
    /// inferred: on the direct path the oldest version fails (and the hint says so, once); on the
    /// stepwise path, from the configuration or the command line, every step is fine.
    @Test func theStepwisePathJudgesEachStepWithItsMappingModel() throws {
        let fixture = "\(Self.migrations)/ConsecutiveMappingModels"
        let direct = try MomlintProcess.run(["lint", fixture, "--all-versions"])
        #expect(direct.status == 1)
        #expect(direct.standardOutput.contains("error: migrating stores of 'Model' to 'Model 3': 'Note.rating' type 'String' → 'Integer 16' cannot be inferred"))
        let hint = "Model.xcdatamodeld: note: the 1 mapping model of Model.xcdatamodeld maps only consecutive versions "
            + "('Model' → 'Model 2'), as an app that migrates one version at a time uses them, and migrating straight to "
            + "'Model 3' fails for 1 older version; if the app migrates step by step, set 'migration: {path: stepwise}' "
            + "in .momlint.yml (or pass --migration-path stepwise)"
        #expect(direct.standardError.components(separatedBy: hint).count == 2, "\(direct.standardError)")

        let stepwise = try MomlintProcess.run(["lint", fixture, "--all-versions", "--migration-path", "stepwise"])
        #expect(stepwise.status == 0, "\(stepwise.standardOutput)\(stepwise.standardError)")
        #expect(!stepwise.standardOutput.contains("migration_"))
        #expect(!stepwise.standardError.contains("note:"))

        let folder = try MigrationCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("stepwise.yml")
        try "migration:\n  all_versions: true\n  path: stepwise\n".write(to: config, atomically: true, encoding: .utf8)
        let configured = try MomlintProcess.run(["lint", fixture, "--config", config.path])
        #expect(configured.status == 0, "\(configured.standardOutput)\(configured.standardError)")
        // The command line wins over the configuration.
        let overridden = try MomlintProcess.run(["lint", fixture, "--config", config.path, "--migration-path", "direct"])
        #expect(overridden.status == 1)

        let versions = try MomlintProcess.run(["versions", "\(fixture)/Model.xcdatamodeld", "--config", config.path])
        #expect(versions.status == 0, "\(versions.standardError)")
        #expect(versions.standardOutput.contains("path: stepwise"))
        #expect(versions.standardOutput.contains("  Model    Z7Czhzra  → 'Model 2': needs the mapping model found for this pair (1 change)\n"))
        #expect(versions.standardOutput.contains("  Model 2  EscxGcFU  → 'Model 3': lightweight migration (1 change)\n"))
        let directTable = try MomlintProcess.run(["versions", "\(fixture)/Model.xcdatamodeld"])
        #expect(directTable.standardOutput.contains("path: direct"))
        #expect(directTable.standardOutput.contains("note: " + hint.dropFirst("Model.xcdatamodeld: note: ".count)), "\(directTable.standardOutput)")
        let directVersions = try MomlintProcess.run(["versions", "\(fixture)/Model.xcdatamodeld", "--format", "json"])
        let document = try Self.json(directVersions.standardOutput)
        #expect(document["path"] as? String == "direct")
        let first = try #require((document["versions"] as? [[String: Any]])?.first)
        #expect((first["toCurrent"] as? [String: Any])?["verdict"] as? String == "not inferable")
        let stepwiseJSON = try Self.json(try MomlintProcess.run(
            ["versions", "\(fixture)/Model.xcdatamodeld", "--format", "json", "--migration-path", "stepwise"]).standardOutput)
        let step = try #require((stepwiseJSON["versions"] as? [[String: Any]])?.first?["toNext"] as? [String: Any])
        #expect(step["to"] as? String == "Model 2" && step["verdict"] as? String == "mapping model")
    }

    @Test func aPathThatIsNeitherIsRefused() throws {
        let bundle = "\(Self.migrations)/ConsecutiveMappingModels/Model.xcdatamodeld"
        let lint = try MomlintProcess.run(["lint", bundle, "--migration-path", "sideways"])
        #expect(lint.status != 0 && lint.standardError.contains("sideways"))
        let folder = try MigrationCommandTests.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let config = folder.appendingPathComponent("odd.yml")
        try "migration:\n  path: sideways\n".write(to: config, atomically: true, encoding: .utf8)
        let configured = try MomlintProcess.run(["lint", bundle, "--config", config.path])
        #expect(configured.standardError.contains(
            "'migration.path' expects 'direct' (Core Data migrates each older version straight to the current one) or "
                + "'stepwise' (the app migrates each version to the next), not 'sideways'; ignoring it"), "\(configured.standardError)")
    }

    /// `diff BUNDLE --migration-path stepwise`: every step, oldest first; `direct`: every older
    /// version to the current one.
    @Test func diffShowsEveryMigrationOfThePath() throws {
        let bundle = "\(Self.migrations)/NumericTypeChange/Model.xcdatamodeld"
        let stepwise = try MomlintProcess.run(["diff", bundle, "--migration-path", "stepwise"])
        #expect(stepwise.status == 0, "\(stepwise.standardError)")
        #expect(stepwise.standardOutput.hasPrefix("'Model' → 'Model 2': lightweight migration (1 change)\n"), "\(stepwise.standardOutput)")
        #expect(stepwise.standardOutput.contains("'Model 2' → 'Model 3': lightweight migration (1 change)\n"))
        let direct = try MomlintProcess.run(["diff", bundle, "--migration-path", "direct", "--format", "json"])
        let documents = try #require(try JSONSerialization.jsonObject(with: Data(direct.standardOutput.utf8)) as? [[String: Any]])
        #expect(documents.map { ($0["older"] as? [String: Any])?["version"] as? String } == ["Model", "Model 2"])
        #expect(documents.allSatisfy { $0["verdict"] as? String == "lightweight" })
    }

    // MARK: Numeric type changes

    /// WooCommerce's `Model 2 → 3` (Integer 16 → Integer 64) and `Model 87 → 88` (Integer 64 →
    /// Double) are shipped without mapping models: no finding on either path; a narrowing change
    /// is a warning that values are truncated, never an error.
    @Test func anInteger64ToDoubleStepIsNoFinding() throws {
        let fixture = "\(Self.migrations)/NumericTypeChange/Model.xcdatamodeld"
        for path in ["direct", "stepwise"] {
            let output = try MomlintProcess.run(["lint", fixture, "--all-versions", "--migration-path", path])
            #expect(output.status == 0, "\(path): \(output.standardOutput)")
            #expect(!output.standardOutput.contains("migration_"), "\(path): \(output.standardOutput)")
        }
        let narrowing = try MomlintProcess.run(["lint", "\(Self.migrations)/NarrowingTypeChange/Model.xcdatamodeld"])
        #expect(narrowing.status == 0)
        #expect(narrowing.standardOutput.contains("warning: migrating stores of 'Model' to 'Model 2' drops data: "
            + "'OrderGiftCard.amount' type 'Double' → 'Integer 32': stored values lose their fractions (truncated) (migration_drops_data)"))
        #expect(!narrowing.standardOutput.contains("error:"))
    }

    // MARK: One finding per cause

    /// Four older versions whose stores all lack a value for the attribute the current version
    /// adds as required: one finding, naming them; JSON and SARIF list every version.
    @Test func olderVersionsSharingOneCauseGetOneFinding() throws {
        let bundle = "\(Self.migrations)/SharedCause/Model.xcdatamodeld"
        let output = try MomlintProcess.run(["lint", bundle, "--all-versions"])
        #expect(output.status == 1)
        let lines = output.standardOutput.split(separator: "\n").filter { $0.contains("(migration_required_without_default)") }
        #expect(lines.count == 1, "\(output.standardOutput)")
        #expect(lines.first?.contains("'Note.createdAt' is required in 'Model 5' with no default value; rows written by "
            + "4 older versions, 'Model' … 'Model 4', have no value for it, so the migration fails (134110) if the store holds any") == true)
        let versions = ["Model", "Model 2", "Model 3", "Model 4"]
        let json = try Self.json(try MomlintProcess.run(["lint", bundle, "--all-versions", "--reporter", "json"]).standardOutput)
        let findings = try #require(json["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["olderVersions"] as? [String] == versions)
        let sarif = try Self.json(try MomlintProcess.run(["lint", bundle, "--all-versions", "--reporter", "sarif"]).standardOutput)
        let result = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])?.first)
        #expect((result["properties"] as? [String: Any])?["olderVersions"] as? [String] == versions)
        // Without --all-versions only the previous version is compared, and named alone.
        let previous = try MomlintProcess.run(["lint", bundle])
        #expect(previous.standardOutput.contains("rows written by 'Model 4' have no value for it"))
    }

    // MARK: The corpus

    static let longHistory = URL(fileURLWithPath: MomlintProcess.packageRoot.path)
        .deletingLastPathComponent().appendingPathComponent("shared/corpus/models/wireapp__wire-ios-data-model/zmessaging.xcdatamodeld").path

    /// Every consecutive pair of a long-history bundle from the corpus, through `diff`: each one
    /// named as OLD NEW, and all of them as the stepwise path of the bundle.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: longHistory), "the corpus is not beside the package"))
    func everyConsecutivePairOfALongHistoryBundleDiffs() throws {
        let versions = try Self.json(try MomlintProcess.run(["versions", Self.longHistory, "--format", "json"]).standardOutput)
        let names = try #require((versions["versions"] as? [[String: Any]])?.compactMap { $0["name"] as? String })
        let current = try #require(versions["current"] as? String)
        let upToCurrent = Array(names.prefix(through: try #require(names.firstIndex(of: current))))
        #expect(upToCurrent.count >= 4)
        for (older, newer) in zip(upToCurrent, upToCurrent.dropFirst()) {
            let output = try MomlintProcess.run(["diff", "\(Self.longHistory)/\(older).xcdatamodel", "\(Self.longHistory)/\(newer).xcdatamodel",
                                                 "--format", "json"])
            #expect(output.status == 0, "\(older) → \(newer): \(output.standardError)")
            let document = try Self.json(output.standardOutput)
            #expect((document["newer"] as? [String: Any])?["version"] as? String == newer)
        }
        let path = try MomlintProcess.run(["diff", Self.longHistory, "--migration-path", "stepwise", "--format", "json"])
        #expect(path.status == 0, "\(path.standardError)")
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(path.standardOutput.utf8)) as? [[String: Any]])
        #expect(steps.map { ($0["older"] as? [String: Any])?["version"] as? String } == upToCurrent.dropLast().map { $0 })
        let lint = try MomlintProcess.run(["lint", Self.longHistory, "--all-versions", "--migration-path", "stepwise"])
        #expect(lint.status != 2, "\(lint.standardError)")
    }
}

import Foundation
import Testing

/// `momlint diff`, `print`, `versions` and the migration checks of `momlint lint`, through the
/// built binary.
@Suite struct MigrationCommandTests {
    static let migrations = "Fixtures/Models/Migrations"

    /// A fresh temporary folder, removed by the caller's `defer`; with `fixture`, holding a copy of
    /// that migration fixture's `Model.xcdatamodeld`.
    static func temporaryFolder(copying fixture: String? = nil) throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-migration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        if let fixture {
            try FileManager.default.copyItem(
                at: MomlintProcess.packageRoot.appendingPathComponent("\(migrations)/\(fixture)/Model.xcdatamodeld"),
                to: folder.appendingPathComponent("Model.xcdatamodeld"))
        }
        return folder
    }

    /// The RemoveAttribute fixture with its older version renamed 'Zulu', whose name sorts after
    /// the current version 'Model 2'.
    static func temporaryFolderWithAVersionAfterTheCurrentOne() throws -> URL {
        let folder = try temporaryFolder(copying: "RemoveAttribute")
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        try FileManager.default.moveItem(at: bundle.appendingPathComponent("Model.xcdatamodel"),
                                         to: bundle.appendingPathComponent("Zulu.xcdatamodel"))
        return folder
    }

    @Test func diffOfABundleIsPreviousToCurrent() throws {
        let output = try MomlintProcess.run(["diff", "\(Self.migrations)/RemoveAttribute/Model.xcdatamodeld"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.hasPrefix("'Model' → 'Model 2': lightweight migration (3 changes), loses data\n"))
        #expect(output.standardOutput.contains("- attribute 'Note.body' removed with its values  [hash changes, lightweight, DATA LOSS]"))
    }

    @Test func diffOfTwoVersionsAsJSON() throws {
        let bundle = "\(Self.migrations)/AttributeTypeChange/Model.xcdatamodeld"
        let output = try MomlintProcess.run(["diff", "\(bundle)/Model.xcdatamodel", "\(bundle)/Model 2.xcdatamodel/contents",
                                             "--format", "json"])
        #expect(output.status == 0, "\(output.standardError)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? [String: Any])
        #expect(document["schemaVersion"] as? Int == 1)
        #expect(document["lightweight"] as? Bool == false)
        #expect(document["verdict"] as? String == "not inferable")
        let changes = try #require(document["changes"] as? [[String: Any]])
        let type = try #require(changes.first { $0["aspect"] as? String == "attributeType" })
        #expect(type["kind"] as? String == "changed" && type["entity"] as? String == "Note" && type["property"] as? String == "rating")
        #expect(type["hashChanging"] as? Bool == true && type["lightweight"] as? Bool == false && type["dataLoss"] as? Bool == false)
    }

    @Test func diffMarkdownIsATable() throws {
        let output = try MomlintProcess.run(["diff", "\(Self.migrations)/RenameWithIdentifier/Model.xcdatamodeld", "--format", "markdown"])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains("| > | entity 'Car' renamed to 'Automobile' | changes | yes | no |"))
    }

    @Test func badInputIsExitTwoWithOneLine() throws {
        for arguments in [["diff", "Nowhere.xcdatamodeld"], ["diff", "Fixtures/Models/Everything.xcdatamodel/contents", "a", "b"],
                          ["diff", "Fixtures/Models"], ["versions", "Fixtures/Models/Everything.xcdatamodel"],
                          ["print", "Fixtures/Models/BadInput"]] {
            let output = try MomlintProcess.run(arguments)
            #expect(output.status == 2, "\(arguments)")
            #expect(output.standardError.split(separator: "\n").count == 1, "\(arguments): \(output.standardError)")
            #expect(output.standardOutput.isEmpty)
        }
    }

    /// A base git would misread is refused before anything is linted, from the command line or
    /// the configuration, naming where it came from.
    @Test func aBaseThatCannotBeARevisionIsExitTwo() throws {
        let bundle = "\(Self.migrations)/RemoveAttribute/Model.xcdatamodeld"
        let option = try MomlintProcess.run(["lint", bundle, "--since=--output=x"])
        #expect(option.status == 2)
        #expect(option.standardError == "error: --since: '--output=x' is not a git revision: it starts with '-', "
            + "which git reads as an option; give a branch, tag or commit, 'HEAD', or 'none'\n")
        #expect(option.standardOutput.isEmpty)

        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let configuration = folder.appendingPathComponent("momlint.yml")
        try "migration:\n  since: \" \"\n".write(to: configuration, atomically: true, encoding: .utf8)
        let configured = try MomlintProcess.run(["lint", bundle, "--config", configuration.path])
        #expect(configured.status == 2)
        #expect(configured.standardError == "error: migration.since: ' ' is not a git revision: it is empty; "
            + "give a branch, tag or commit, 'HEAD', or 'none'\n")
        // The command line wins over the configuration.
        #expect(try MomlintProcess.run(["lint", bundle, "--config", configuration.path, "--since", "none"]).status == 0)
    }

    @Test func versionsListsTheOrderAndEachVerdict() throws {
        let output = try MomlintProcess.run(["versions", "\(Self.migrations)/TypeChangeWithMappingModel/Typed.xcdatamodeld"])
        #expect(output.status == 0, "\(output.standardError)")
        #expect(output.standardOutput.contains("  Model    Z7Czhzra  needs the mapping model found for this pair (2 changes)\n"))
        #expect(output.standardOutput.contains("  Model 2  EscxGcFU  current\n"))
        let json = try MomlintProcess.run(["versions", "Fixtures/Models/Notes.xcdatamodeld", "--format", "json"])
        #expect(json.status == 0, "\(json.standardError)")
        #expect(json.standardOutput.contains(#""current" : "Notes 2""#))
        #expect(json.standardOutput.contains(#""previous" : "Notes""#))
    }

    @Test func printIsStableAcrossReorderedXML() throws {
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let head = #"<?xml version="1.0" encoding="UTF-8"?><model type="com.apple.IDECoreDataModeler.DataModel">"#
        let a = #"<entity name="A"><attribute name="x" optional="YES" attributeType="String"/><attribute name="b" attributeType="Integer 16" defaultValueString="0"/></entity>"#
        let b = #"<entity name="B"/>"#
        try (head + a + b + "</model>").write(to: folder.appendingPathComponent("one"), atomically: true, encoding: .utf8)
        try (head + b + "\n  " + a + "</model>").write(to: folder.appendingPathComponent("two"), atomically: true, encoding: .utf8)
        let one = try MomlintProcess.run(["print", folder.appendingPathComponent("one").path])
        let two = try MomlintProcess.run(["print", folder.appendingPathComponent("two").path])
        #expect(one.status == 0 && two.status == 0, "\(one.standardError)")
        #expect(one.standardOutput == two.standardOutput)
        #expect(one.standardOutput == """
            model
            entity A
              attribute b: Integer 16 required default="0"
              attribute x: String optional
            entity B

            """)
    }

    /// `.` inside a bundle or a version folder names that folder: its parent and its name are
    /// taken from the absolute path (Foundation traps on `"."`'s lexical parent on Linux).
    @Test func aPathNamedDotInsideABundleOrVersionFolderIsThatFolder() throws {
        let bundle = MomlintProcess.packageRoot.appendingPathComponent("\(Self.migrations)/RemoveAttribute/Model.xcdatamodeld")
        let version = bundle.appendingPathComponent("Model 2.xcdatamodel")
        let heading = "'Model' → 'Model 2': lightweight migration (3 changes), loses data\n"
        let finding = "warning: migrating stores of 'Model' to 'Model 2' drops data: attribute 'Note.body' removed"

        let diff = try MomlintProcess.run(["diff", "."], in: bundle)
        #expect(diff.status == 0, "\(diff.standardError)")
        #expect(diff.standardOutput.hasPrefix(heading))
        let versions = try MomlintProcess.run(["versions", "."], in: bundle)
        #expect(versions.status == 0, "\(versions.standardError)")
        #expect(versions.standardOutput.hasPrefix(bundle.path + " (2 versions, ordered by folder names)\n"))
        #expect(versions.standardOutput.contains("  Model 2  6c0ptQrw  current\n"))
        let lintBundle = try MomlintProcess.run(["lint", "."], in: bundle)
        #expect(lintBundle.status == 0, "\(lintBundle.standardError)")
        #expect(lintBundle.standardOutput.contains(version.path + "/contents:3:5: " + finding))

        for arguments in [["lint", "."], ["lint", "contents"], ["lint", "./contents"]] {
            let lint = try MomlintProcess.run(arguments, in: version)
            #expect(lint.status == 0, "\(arguments): \(lint.standardError)")
            #expect(lint.standardOutput.contains(finding), "\(arguments): \(lint.standardOutput)")
        }
        let print = try MomlintProcess.run(["print", "."], in: version)
        #expect(print.status == 0, "\(print.standardError)")
        #expect(print.standardOutput.hasPrefix("model\nentity Note"))
        let pair = try MomlintProcess.run(["diff", "../Model.xcdatamodel", "."], in: version)
        #expect(pair.status == 0, "\(pair.standardError)")
        #expect(pair.standardOutput.hasPrefix(heading))
        let fromParent = try MomlintProcess.run(["diff", "..", "--format", "json"], in: version)
        #expect(fromParent.status == 0, "\(fromParent.standardError)")

        // A folder that is neither keeps the user's spelling in findings.
        let project = try MomlintProcess.run(["lint", "."], in: bundle.deletingLastPathComponent())
        #expect(project.standardOutput.contains("./Model.xcdatamodeld/Model 2.xcdatamodel/contents:3:5: " + finding),
                "\(project.standardOutput)")
    }

    /// `versions`, `diff BUNDLE` and `lint` read `migration.version_order` alike: from the
    /// nearest `.momlint.yml`, or from `--config`.
    @Test func theConfiguredVersionOrderIsReadByVersionsDiffAndLint() throws {
        let folder = try Self.temporaryFolderWithAVersionAfterTheCurrentOne()
        defer { try? FileManager.default.removeItem(at: folder) }

        // Unconfigured: 'Zulu' sorts after the current version, which then has no previous one.
        let unordered = try MomlintProcess.run(["versions", "Model.xcdatamodeld"], in: folder)
        #expect(unordered.status == 0, "\(unordered.standardError)")
        #expect(unordered.standardOutput.contains("  Model 2  6c0ptQrw  current\n"))
        #expect(unordered.standardOutput.contains(
            "  Zulu     Dwdhylka  lightweight migration (3 changes), loses data  (ordered after the current version)\n"))
        #expect(unordered.standardOutput.contains("note: 'Zulu' is ordered after the current version 'Model 2' (by folder names): "
            + "maybe the current version is not the newest"))
        #expect(try MomlintProcess.run(["diff", "Model.xcdatamodeld"], in: folder).status == 2)

        try "migration:\n  version_order:\n    Model.xcdatamodeld: [Zulu, Model 2]\n"
            .write(to: folder.appendingPathComponent(".momlint.yml"), atomically: true, encoding: .utf8)
        let ordered = try MomlintProcess.run(["versions", "Model.xcdatamodeld"], in: folder)
        #expect(ordered.status == 0, "\(ordered.standardError)")
        #expect(ordered.standardOutput.contains("(2 versions, ordered by configured)"))
        #expect(ordered.standardOutput.contains("  Zulu     Dwdhylka  lightweight migration (3 changes), loses data\n"))
        #expect(!ordered.standardOutput.contains("note:"))
        let diff = try MomlintProcess.run(["diff", "Model.xcdatamodeld"], in: folder)
        #expect(diff.status == 0, "\(diff.standardError)")
        #expect(diff.standardOutput.hasPrefix("'Zulu' → 'Model 2': lightweight migration (3 changes), loses data\n"))
        let lint = try MomlintProcess.run(["lint", "Model.xcdatamodeld", "--since", "none"], in: folder)
        #expect(lint.standardOutput.contains("migrating stores of 'Zulu' to 'Model 2' drops data"), "\(lint.standardOutput)")

        // The same file elsewhere, named with --config: the path key is taken from its folder.
        let elsewhere = folder.appendingPathComponent("config")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: folder.appendingPathComponent(".momlint.yml"),
                                         to: elsewhere.appendingPathComponent("order.yml"))
        try "migration:\n  version_order:\n    ../Model.xcdatamodeld: [Zulu, Model 2]\n"
            .write(to: elsewhere.appendingPathComponent("order.yml"), atomically: true, encoding: .utf8)
        #expect(try MomlintProcess.run(["diff", "Model.xcdatamodeld"], in: folder).status == 2)
        let configured = try MomlintProcess.run(["diff", "Model.xcdatamodeld", "--config", "config/order.yml"], in: folder)
        #expect(configured.status == 0, "\(configured.standardError)")
        #expect(configured.standardOutput.hasPrefix("'Zulu' → 'Model 2'"))
        let versions = try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--config", "config/order.yml"], in: folder)
        #expect(versions.standardOutput.contains("ordered by configured"), "\(versions.standardOutput)\(versions.standardError)")
        // --order wins over the configuration.
        let overridden = try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--config", "config/order.yml",
                                                 "--order", "Model 2,Zulu"], in: folder)
        #expect(overridden.standardOutput.contains("(ordered after the current version)"))
        // A configuration that cannot be read is bad input, as for lint.
        let broken = try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--config", "config/none.yml"], in: folder)
        #expect(broken.status == 2 && broken.standardOutput.isEmpty)
    }

    /// Every version other than the current one is migrated from, including one ordered after
    /// it: `--all-versions` compares it.
    @Test func allVersionsComparesAVersionOrderedAfterTheCurrentOne() throws {
        let folder = try Self.temporaryFolderWithAVersionAfterTheCurrentOne()
        defer { try? FileManager.default.removeItem(at: folder) }
        let previousOnly = try MomlintProcess.run(["lint", "Model.xcdatamodeld", "--since", "none"], in: folder)
        #expect(!previousOnly.standardOutput.contains("migration_drops_data"))
        let all = try MomlintProcess.run(["lint", "Model.xcdatamodeld", "--since", "none", "--all-versions"], in: folder)
        #expect(all.standardOutput.contains("migrating stores of 'Zulu' to 'Model 2' drops data"), "\(all.standardOutput)")
    }

    /// An older version in Xcode 3's binary format fails nothing: the current version is linted,
    /// the previous one compared; where the unreadable one would be compared, a note says so.
    @Test func anUnreadableOlderVersionIsANoteNotAFailure() throws {
        let bundle = "\(Self.migrations)/UnreadableOlderVersion/Model.xcdatamodeld"
        let current = try MomlintProcess.run(["lint", "\(bundle)/Model 3.xcdatamodel/contents"])
        #expect(current.status == 0, "\(current.standardOutput)\(current.standardError)")
        #expect(!current.standardError.contains("error:"))
        #expect(!current.standardError.contains("Model.xcdatamodel"))

        let note = "\(bundle)/Model.xcdatamodel: note: migration from 'Model' to 'Model 3' not checked: it is in the binary "
            + "format of Xcode 3 and earlier ('elements' and 'layout', no 'contents'), which momlint cannot read\n"
        let folder = try Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        try "migration:\n  all_versions: true\n".write(to: folder.appendingPathComponent("all.yml"), atomically: true, encoding: .utf8)
        let configured = try MomlintProcess.run(["lint", bundle, "--config", folder.appendingPathComponent("all.yml").path])
        #expect(configured.status == 0, "\(configured.standardOutput)\(configured.standardError)")
        #expect(configured.standardError.contains(note), "\(configured.standardError)")
        #expect(!configured.standardError.contains("save it"))
        let flagged = try MomlintProcess.run(["lint", bundle, "--all-versions"])
        #expect(flagged.status == 0, "\(flagged.standardOutput)\(flagged.standardError)")
        #expect(flagged.standardError.contains(note), "\(flagged.standardError)")

        let versions = try MomlintProcess.run(["versions", bundle])
        #expect(versions.status == 0, "\(versions.standardError)")
        #expect(versions.standardOutput.contains("  Model    -         unreadable: it is in the binary format of Xcode 3 and earlier"))
        #expect(versions.standardOutput.contains("  Model 2  KE8AdVgO  lightweight migration (1 change)\n"))
        let json = try MomlintProcess.run(["versions", bundle, "--format", "json"])
        #expect(json.status == 0 && json.standardOutput.contains(#""unreadable" : "it is in the binary format"#))
        let diff = try MomlintProcess.run(["diff", bundle])
        #expect(diff.status == 0, "\(diff.standardError)")
        #expect(diff.standardOutput.hasPrefix("'Model 2' → 'Model 3': lightweight migration (1 change)\n"))
    }

    /// An added required attribute fails on every stored row; an optional one made required
    /// only on rows that hold nil: the message says which. Neither is "not inferable" (134140).
    @Test func aMissingDefaultIsInferableAndFailsWith134110() throws {
        let madeRequired = try MomlintProcess.run(["lint", "\(Self.migrations)/RequiredWithoutDefault/Model.xcdatamodeld"])
        #expect(madeRequired.status == 1)
        #expect(madeRequired.standardOutput.contains("Model 2.xcdatamodel/contents:4:9: error: 'Note.title' is required in 'Model 2' "
            + "with no default value; rows written by 'Model' that have no value for it make the migration fail (134110); "
            + "give it a default value or make it optional (migration_required_without_default)"))
        #expect(!madeRequired.standardOutput.contains("migration_not_inferable"))
        for bundle in ["RequiredWithoutDefault", "AddRequiredWithoutDefault"] {
            let diff = try MomlintProcess.run(["diff", "\(Self.migrations)/\(bundle)/Model.xcdatamodeld"])
            #expect(diff.standardOutput.hasPrefix("'Model' → 'Model 2': lightweight migration (1 change), "
                + "fails (134110) for stored rows without a value for a required attribute\n"), "\(diff.standardOutput)")
            #expect(!diff.standardOutput.contains("134140"))
            let versions = try MomlintProcess.run(["versions", "\(Self.migrations)/\(bundle)/Model.xcdatamodeld", "--format", "json"])
            #expect(versions.standardOutput.contains(#""verdict" : "lightweight""#), "\(versions.standardOutput)")
        }
        let markdown = try MomlintProcess.run(["diff", "\(Self.migrations)/AddRequiredWithoutDefault/Model.xcdatamodeld",
                                               "--format", "markdown"])
        #expect(markdown.standardOutput.contains("| yes; **fails (134110)** for every existing row | no |"))
    }

    @Test func lintRunsTheMigrationRulesOnBundles() throws {
        let output = try MomlintProcess.run(["lint", "\(Self.migrations)/AddRequiredWithoutDefault/Model.xcdatamodeld"])
        #expect(output.status == 1)
        #expect(output.standardOutput.contains(
            "Model 2.xcdatamodel/contents:5:9: error: 'Note.createdAt' is required in 'Model 2' with no default value"))
        #expect(output.standardOutput.contains("(migration_required_without_default)"))
    }
}

/// What a pre-commit hook sees: editing a version that is not current fails with
/// `shipped_version_modified`, in the working tree and in the index; `--since` moves the base.
private let gitIsInstalled = FileManager.default.isExecutableFile(atPath: "/usr/bin/git")

@Suite(.enabled(if: gitIsInstalled)) struct MigrationPreCommitTests {
    /// Runs git in `folder` with a committer identity and no signing; its exit status and
    /// standard output.
    static func runGit(_ arguments: [String], in folder: URL) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-c", "user.name=momlint", "-c", "user.email=momlint@example.invalid",
                             "-c", "commit.gpgsign=false"] + arguments
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @discardableResult
    static func git(_ arguments: [String], in folder: URL) throws -> Int32 {
        try runGit(arguments, in: folder).status
    }

    /// Standard output of a git command (status ignored: callers check what it printed).
    static func gitOutput(_ arguments: [String], in folder: URL) throws -> String {
        try runGit(arguments, in: folder).output
    }

    /// The `.gitattributes` line the docs give makes git run `momlint print` on a version nested
    /// below the repository's top folder: `git diff` shows printed schema lines, not XML. (A
    /// pattern with a slash and no leading `**/` is anchored at the top and matches nothing
    /// here, which `check-attr` shows.)
    @Test func theDocumentedGitattributesLineMakesGitDiffPrintTheModel() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-textconv-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let app = folder.appendingPathComponent("App")
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: MomlintProcess.packageRoot.path + "/\(MigrationCommandTests.migrations)/AddOptionalAttribute/Model.xcdatamodeld",
            toPath: app.path + "/Model.xcdatamodeld")
        try #require(try Self.git(["init", "-q"], in: folder) == 0)
        let contents = "App/Model.xcdatamodeld/Model 2.xcdatamodel/contents"

        try "*.xcdatamodel/contents diff=momlint\n".write(to: folder.appendingPathComponent(".gitattributes"),
                                                            atomically: true, encoding: .utf8)
        #expect(try Self.gitOutput(["check-attr", "diff", contents], in: folder) == "\(contents): diff: unspecified\n")

        let documented = "**/*.xcdatamodel/contents diff=momlint\n"
        #expect(try String(contentsOf: MomlintProcess.packageRoot.appendingPathComponent("docs/migrations.md"), encoding: .utf8)
            .contains("  " + documented))
        try documented.write(to: folder.appendingPathComponent(".gitattributes"), atomically: true, encoding: .utf8)
        #expect(try Self.gitOutput(["check-attr", "diff", contents], in: folder) == "\(contents): diff: momlint\n")

        try Self.git(["config", "diff.momlint.textconv", "'\(try MomlintProcess.executable.path)' print"], in: folder)
        try Self.git(["add", "."], in: folder)
        try #require(try Self.git(["commit", "-q", "-m", "ship"], in: folder) == 0)
        let file = folder.appendingPathComponent(contents)
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "</entity>", with: "    <attribute name=\"archived\" optional=\"YES\" attributeType=\"Boolean\" usesScalarValueType=\"YES\"/>\n    </entity>")
            .write(to: file, atomically: true, encoding: .utf8)
        let diff = try Self.gitOutput(["diff", "--", contents], in: folder)
        #expect(diff.contains("\n+  attribute archived: Boolean optional"), "\(diff)")
        #expect(!diff.contains("<attribute"), "\(diff)")
    }

    @Test func editingAShippedVersionFailsThePreCommitCheck() throws {
        let folder = try MigrationCommandTests.temporaryFolder(copying: "AddOptionalAttribute")
        defer { try? FileManager.default.removeItem(at: folder) }
        try #require(try Self.git(["init", "-q"], in: folder) == 0)
        // The textconv setup docs/migrations.md recommends, with a driver that mangles the XML:
        // the base must still be read as the raw blob.
        try "**/*.xcdatamodel/contents diff=momlint\n".write(to: folder.appendingPathComponent(".gitattributes"),
                                                              atomically: true, encoding: .utf8)
        try Self.git(["config", "diff.momlint.textconv", "sed s/entity/broken/"], in: folder)
        // The driver does apply to the versions: git would hand them to it.
        #expect(try Self.gitOutput(["check-attr", "diff", "Model.xcdatamodeld/Model.xcdatamodel/contents"], in: folder)
            == "Model.xcdatamodeld/Model.xcdatamodel/contents: diff: momlint\n")
        try Self.git(["add", "."], in: folder)
        try #require(try Self.git(["commit", "-q", "-m", "ship Model"], in: folder) == 0)

        let clean = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder)
        #expect(clean.status == 0, "\(clean.standardOutput)\(clean.standardError)")

        // Edit the shipped (non-current) version: a new attribute changes its version hash.
        let old = folder.appendingPathComponent("Model.xcdatamodeld/Model.xcdatamodel/contents")
        let text = try String(contentsOf: old, encoding: .utf8)
        try text.replacingOccurrences(of: "</entity>", with: "    <attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/>\n    </entity>")
            .write(to: old, atomically: true, encoding: .utf8)
        let edited = try MomlintProcess.run(["lint", "Model.xcdatamodeld/Model.xcdatamodel/contents"], in: folder)
        #expect(edited.status == 1)
        #expect(edited.standardOutput.contains(
            "Model.xcdatamodeld/Model.xcdatamodel/contents:5:9: error: 'Model' is not the current version but changed since HEAD: "
                + "entity 'Note' no longer hashes as shipped (attribute 'Note.added' added); stores it wrote match no version in the bundle"))
        #expect(edited.standardOutput.contains("(shipped_version_modified)"))

        // Staged, then the working tree reverted: the index still holds the edit.
        try Self.git(["add", "."], in: folder)
        try text.write(to: old, atomically: true, encoding: .utf8)
        let staged = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder)
        #expect(staged.status == 1, "\(staged.standardOutput)")
        #expect(staged.standardOutput.contains("changed since HEAD (in the index)"))

        // Committed: HEAD is the new base; against the first commit it is still a change.
        try text.replacingOccurrences(of: "</entity>", with: "    <attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/>\n    </entity>")
            .write(to: old, atomically: true, encoding: .utf8)
        try Self.git(["commit", "-q", "-am", "edit a shipped version"], in: folder)
        #expect(try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder).status == 0)
        let sinceFirst = try MomlintProcess.run(["lint", "Model.xcdatamodeld", "--since", "HEAD~1"], in: folder)
        #expect(sinceFirst.status == 1)
        #expect(sinceFirst.standardOutput.contains("changed since HEAD~1"))
        let bogus = try MomlintProcess.run(["lint", "Model.xcdatamodeld", "--since", "no-such-rev"], in: folder)
        #expect(bogus.status == 2)
        #expect(bogus.standardError.contains("'no-such-rev' is not a commit"))
    }

    /// git runs once per bundle (every older version's committed and staged files in one
    /// `cat-file --batch`, started when the bundle is found); with `shipped_version_modified`
    /// disabled it is not run at all.
    @Test func gitRunsOncePerBundleAndNotAtAllWithoutTheRule() throws {
        let folder = try MigrationCommandTests.temporaryFolder(copying: "AddOptionalAttribute")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        // A third version, so that two older versions are checked.
        try FileManager.default.copyItem(at: bundle.appendingPathComponent("Model.xcdatamodel"),
                                         to: bundle.appendingPathComponent("Model 0.xcdatamodel"))
        try #require(try Self.git(["init", "-q"], in: folder) == 0)
        try Self.git(["add", "."], in: folder)
        try #require(try Self.git(["commit", "-q", "-m", "ship"], in: folder) == 0)
        // A `git` that logs its arguments before running the real one.
        let tools = folder.appendingPathComponent("tools")
        try FileManager.default.createDirectory(at: tools, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("git.log")
        try "#!/bin/sh\necho \"$*\" >> '\(log.path)'\nexec /usr/bin/git \"$@\"\n"
            .write(to: tools.appendingPathComponent("git"), atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: tools.appendingPathComponent("git").path)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = tools.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")

        let checked = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder, environment: environment)
        #expect(checked.status == 0, "\(checked.standardOutput)\(checked.standardError)")
        let calls = try String(contentsOf: log, encoding: .utf8).split(separator: "\n")
        // Two older versions, both read at HEAD and in the index by one `cat-file --batch` in the
        // bundle; nothing else (outside a work tree that one process fails, which means no base).
        #expect(calls == ["-C Model.xcdatamodeld cat-file --batch"], "\(calls)")

        try FileManager.default.removeItem(at: log)
        try "disabled_rules: [shipped_version_modified]\n".write(to: folder.appendingPathComponent(".momlint.yml"),
                                                               atomically: true, encoding: .utf8)
        let unchecked = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder, environment: environment)
        #expect(unchecked.status == 0, "\(unchecked.standardOutput)\(unchecked.standardError)")
        #expect(!FileManager.default.fileExists(atPath: log.path), "git ran with shipped_version_modified disabled")
    }

    @Test func aLockFileIsTheBaseWithoutGit() throws {
        let folder = try MigrationCommandTests.temporaryFolder(copying: "AddOptionalAttribute")
        defer { try? FileManager.default.removeItem(at: folder) }
        let lock = try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--lock"], in: folder)
        #expect(lock.status == 0, "\(lock.standardError)")
        #expect(FileManager.default.fileExists(atPath: folder.path + "/Model.xcdatamodeld.momlint-lock.json"))
        #expect(try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder).status == 0)
        let old = folder.appendingPathComponent("Model.xcdatamodeld/Model.xcdatamodel/contents")
        let text = try String(contentsOf: old, encoding: .utf8)
        try text.replacingOccurrences(of: "optional=\"YES\" attributeType=\"String\"", with: "attributeType=\"String\"")
            .write(to: old, atomically: true, encoding: .utf8)
        let edited = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder)
        #expect(edited.status == 1)
        #expect(edited.standardOutput.contains(
            "changed since Model.xcdatamodeld.momlint-lock.json: entity 'Note' no longer hashes as shipped ('Note.title' optionality"))
    }
}

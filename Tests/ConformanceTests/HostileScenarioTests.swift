import Conformance
import Foundation
import Testing

/// A scenario folder from another project is untrusted: hostile YAML ends in one error naming
/// the file and place, and the other scenarios still load. (SafeYAMLTests prove the bounds;
/// these prove the scenario loader goes through them.)
@Suite struct HostileScenarioTests {
    func loadError(_ yaml: String) -> ScenarioLoadError? {
        do {
            _ = try ScenarioLoader().parse(yaml: yaml, file: "/suite/hostile.yaml")
            return nil
        } catch {
            return error
        }
    }

    @Test func aliasBombIsRefusedBeforeTheStepsAreRead() throws {
        var yaml = "id: test.bomb\nl0: &l0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...8 {
            yaml += "l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        yaml += "steps: *l8\n"
        let error = try #require(loadError(yaml))
        #expect(error.file == "/suite/hostile.yaml")
        #expect(error.line == 6)
        #expect(error.message.hasPrefix("refused: the document expands to more than 100000 nodes"))
        #expect(!error.description.contains("\n"))
    }

    @Test func deepNestingIsRefused() throws {
        let error = try #require(loadError("steps: " + String(repeating: "[", count: 50_000)))
        #expect(error.message == "refused: sequences and mappings nest deeper than 64 levels")
    }

    @Test func oversizedScenarioFileIsRefusedAndTheOthersStillLoad() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-scenarios-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data(String(repeating: "# padding\n", count: 110_000).utf8).write(to: folder.appendingPathComponent("huge.yaml"))
        try Data([0x69, 0x64, 0x3A, 0x20, 0xFF]).write(to: folder.appendingPathComponent("latin1.yaml"))

        let suite = ScenarioLoader().loadSuite(in: folder.path)
        #expect(suite.errors.map(\.description) == [
            folder.path + "/huge.yaml: error: refused: the file is larger than 1048576 bytes, the limit for a "
                + "YAML file; momlint's YAML files are a few kilobytes",
            folder.path + "/latin1.yaml: error: cannot read: it is not UTF-8 text",
        ])
    }
}

/// A scenario's `model:` is a path from an untrusted file: `model: /` once scanned the whole disk.
/// It must name a model (never a folder to search) inside the scenario folder, the shipped models,
/// or a folder allowed on the command line.
@Suite struct ScenarioModelPathTests {
    static func scenario(model: String) -> String {
        """
        id: test.path
        description: where the model may be
        references: [https://developer.apple.com/documentation/coredata]
        features: []
        model: \(model)
        steps:
          - save

        """
    }

    /// A scenario folder holding `own/Company.xcdatamodeld` (a copy of a shipped model) and `s.yaml`.
    final class ScenarioFolder {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-model-path-\(UUID().uuidString)").path
        var folder: String { root + "/suite" }
        init(model: String) throws {
            try FileManager.default.createDirectory(atPath: folder + "/own", withIntermediateDirectories: true)
            try FileManager.default.copyItem(atPath: Fixtures.modelPath("Company"),
                                             toPath: folder + "/own/Company.xcdatamodeld")
            try FileManager.default.copyItem(atPath: Fixtures.modelPath("Company"),
                                             toPath: root + "/Outside.xcdatamodeld")
            try ScenarioModelPathTests.scenario(model: model).write(toFile: folder + "/s.yaml", atomically: true, encoding: .utf8)
        }
        deinit { try? FileManager.default.removeItem(atPath: root) }

        func errors(allowing roots: [String] = []) -> [String] {
            ScenarioLoader(allowedModelRoots: roots).loadSuite(in: folder).errors.map(\.message)
        }
    }

    @Test func theRootOfTheDiskIsRefusedWithoutSearching() throws {
        let suite = try ScenarioFolder(model: "/")
        #expect(suite.errors() == ["'model' must name an .xcdatamodeld bundle, an .xcdatamodel folder or a contents "
            + "file, not '/'; a scenario never searches a folder for models"])
    }

    @Test func aModelOutsideTheScenarioFolderIsRefusedUnlessAllowed() throws {
        let suite = try ScenarioFolder(model: "../Outside.xcdatamodeld")
        #expect(suite.errors() == ["the model '\(suite.root)/Outside.xcdatamodeld' is outside the scenario folder; "
            + "a scenario's model must be inside it (or under a folder given with --allow-models-under)"])
        #expect(suite.errors(allowing: [suite.root]) == [])
    }

    @Test func aSymlinkInsideThatLeadsOutsideIsRefused() throws {
        let suite = try ScenarioFolder(model: "own/Link.xcdatamodeld")
        try FileManager.default.createSymbolicLink(atPath: suite.folder + "/own/Link.xcdatamodeld",
                                                   withDestinationPath: suite.root + "/Outside.xcdatamodeld")
        #expect(suite.errors().first?.contains("is outside the scenario folder") == true)
    }

    @Test func aModelInsideTheScenarioFolderLoads() throws {
        let suite = try ScenarioFolder(model: "own/Company.xcdatamodeld")
        #expect(suite.errors() == [])
    }

    // Every file the load reads is checked, not only the path `model:` names (issue 21, item 8).

    static func refusal(_ inner: String, in model: String) -> String {
        "'\(inner)' in the model '\(model)' leads outside the scenario folder; every file a scenario's model reads "
            + "must be inside it (or under a folder given with --allow-models-under)"
    }

    @Test func aContentsFileLinkedToAModelOutsideIsRefused() throws {
        let suite = try ScenarioFolder(model: "Evil.xcdatamodel")
        try FileManager.default.createDirectory(atPath: suite.folder + "/Evil.xcdatamodel", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: suite.folder + "/Evil.xcdatamodel/contents",
            withDestinationPath: suite.root + "/Outside.xcdatamodeld/Company.xcdatamodel/contents")
        #expect(suite.errors() == [Self.refusal("contents", in: suite.folder + "/Evil.xcdatamodel")])
        #expect(suite.errors(allowing: [suite.root]) == [])
    }

    /// `/etc/passwd` was read (and reported as a model that does not parse); now it is refused unread.
    @Test func aContentsFileLinkedToASystemFileIsRefusedUnread() throws {
        let suite = try ScenarioFolder(model: "Evil.xcdatamodel/contents")
        try FileManager.default.createDirectory(atPath: suite.folder + "/Evil.xcdatamodel", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: suite.folder + "/Evil.xcdatamodel/contents",
                                                   withDestinationPath: "/etc/passwd")
        #expect(suite.errors() == ["the model '\(suite.folder)/Evil.xcdatamodel/contents' is outside the scenario folder; "
            + "a scenario's model must be inside it (or under a folder given with --allow-models-under)"])
        let bundle = try ScenarioFolder(model: "Evil.xcdatamodel")
        try FileManager.default.createDirectory(atPath: bundle.folder + "/Evil.xcdatamodel", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: bundle.folder + "/Evil.xcdatamodel/contents",
                                                   withDestinationPath: "/etc/passwd")
        #expect(bundle.errors() == [Self.refusal("contents", in: bundle.folder + "/Evil.xcdatamodel")])
    }

    @Test func aBundleWhoseVersionFolderLinksOutsideIsRefused() throws {
        let suite = try ScenarioFolder(model: "Evil.xcdatamodeld")
        try FileManager.default.createDirectory(atPath: suite.folder + "/Evil.xcdatamodeld", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: suite.folder + "/Evil.xcdatamodeld/Company.xcdatamodel",
            withDestinationPath: suite.root + "/Outside.xcdatamodeld/Company.xcdatamodel")
        #expect(suite.errors() == [Self.refusal("Company.xcdatamodel", in: suite.folder + "/Evil.xcdatamodeld")])
    }

    @Test func aBundleWhoseCurrentVersionFileLinksOutsideIsRefused() throws {
        let suite = try ScenarioFolder(model: "own/Company.xcdatamodeld")
        try "<plist/>".write(toFile: suite.root + "/secret", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: suite.folder + "/own/Company.xcdatamodeld/.xccurrentversion",
                                                   withDestinationPath: suite.root + "/secret")
        #expect(suite.errors() == [Self.refusal(".xccurrentversion", in: suite.folder + "/own/Company.xcdatamodeld")])
    }

    /// Links that stay inside the scenario folder are fine: the check is where files are, not how.
    @Test func aVersionFolderLinkedWithinTheScenarioFolderLoads() throws {
        let suite = try ScenarioFolder(model: "Linked.xcdatamodeld")
        try FileManager.default.createDirectory(atPath: suite.folder + "/Linked.xcdatamodeld", withIntermediateDirectories: false)
        try FileManager.default.createSymbolicLink(atPath: suite.folder + "/Linked.xcdatamodeld/Company.xcdatamodel",
            withDestinationPath: suite.folder + "/own/Company.xcdatamodeld/Company.xcdatamodel")
        #expect(suite.errors() == [])
    }
}

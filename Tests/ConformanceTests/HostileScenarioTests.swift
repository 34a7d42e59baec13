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

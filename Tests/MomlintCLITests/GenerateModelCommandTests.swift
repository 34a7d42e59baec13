import Foundation
import Testing

/// `momlint generate-model` end to end: hidden, deterministic, clean to lint, clear on bad input.
@Suite struct GenerateModelCommandTests {
    static func temporaryFolder() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("momlint-generate-\(UUID().uuidString)")
    }

    @Test func writesADeterministicModelThatLintsClean() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let first = try MomlintProcess.run(["generate-model", "--entities", "40", "--seed", "9", "--output", folder.path])
        #expect(first.status == 0, "\(first.standardError)")
        let bundle = folder.appendingPathComponent("Synthetic40.xcdatamodeld")
        #expect(first.standardOutput == bundle.path + "\n")
        let contents = bundle.appendingPathComponent("Synthetic40.xcdatamodel/contents")
        let firstBytes = try Data(contentsOf: contents)

        let again = try MomlintProcess.run([
            "generate-model", "--entities", "40", "--seed", "9", "--output", folder.path, "--force",
        ])
        #expect(again.status == 0, "\(again.standardError)")
        #expect(try Data(contentsOf: contents) == firstBytes)

        let lint = try MomlintProcess.run(["lint", bundle.path])
        #expect(lint.status == 0, "\(lint.standardError)")
        #expect(lint.standardError.contains("Linted 1 model: 0 errors"))
    }

    @Test func refusesToOverwriteWithoutForce() throws {
        let folder = Self.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        _ = try MomlintProcess.run(["generate-model", "--entities", "3", "--output", folder.path, "--name", "Shop"])
        let output = try MomlintProcess.run(["generate-model", "--entities", "3", "--output", folder.path, "--name", "Shop"])
        #expect(output.status == 2)
        #expect(output.standardError == folder.appendingPathComponent("Shop.xcdatamodeld").path
            + ": error: already exists; pass --force to replace it\n")
    }

    @Test func badArgumentsAreOneClearLine() throws {
        let zero = try MomlintProcess.run(["generate-model", "--entities", "0", "--output", "/tmp"])
        #expect(zero.status != 0)
        #expect(zero.standardError.contains("--entities must be between 1 and 100000, not 0"))

        let unwritable = try MomlintProcess.run(["generate-model", "--entities", "2", "--output", "/dev/null/models"])
        #expect(unwritable.status == 2)
        #expect(unwritable.standardError == "/dev/null/models: error: cannot write: not a directory\n")
    }

    @Test func isHiddenFromHelp() throws {
        let help = try MomlintProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(!help.standardOutput.contains("generate-model"))
    }
}

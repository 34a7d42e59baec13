import Foundation
import Testing

/// Hostile inputs through the real binary: each is exit 2 with exactly one error line on
/// standard error (plus the summary), and nothing from libxml2 or Yams printed on the side.
@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct HostileInputCommandTests {
    /// A device is refused as what it is before a byte is read (it was once read up to the size limit).
    @Test func endlessConfigurationFileIsRefused() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--config", "/dev/zero")
        #expect(result.status == 2)
        #expect(result.standardError == "/dev/zero: error: cannot read the configuration file: "
                    + "it is not a regular file (a character device)\n")
    }

    @Test func oversizedConfigurationFileIsRefused() throws {
        let workspace = try Workspace()
        try workspace.write("big.yml", "# " + String(repeating: "x", count: 1 << 20) + "\n")
        let result = try workspace.run("lint", "--config", "big.yml")
        #expect(result.status == 2)
        #expect(result.standardError == "big.yml: error: refused: the file is larger than 1048576 bytes, "
                    + "the limit for a YAML file; momlint's YAML files are a few kilobytes\n")
    }

    @Test func aliasBombConfigurationIsRefused() throws {
        var yaml = "a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
        for level in 1...8 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        let workspace = try Workspace(configuration: yaml + "only_rules: *a8\n")
        let result = try workspace.run("lint")
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix(".momlint.yml:5:"))
        #expect(result.standardError.contains("error: refused: the document expands to more than 100000 nodes"))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test func foreignEncodingIsOneLineAndLibxml2PrintsNothing() throws {
        let workspace = try Workspace()
        let model = MomlintProcess.packageRoot.path + "/Fixtures/Models/BadInput/ForeignEncoding.xcdatamodel"
        let result = try workspace.run("lint", model)
        #expect(result.status == 2)
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 2, "one error and the summary: \(result.standardError)")
        #expect(lines.first?.hasSuffix("contents:3:22: error: malformed XML: Input is not proper UTF-8 "
                    + "(models are UTF-8, as Xcode writes them); Bytes: 0xE9 0x22 0x2F 0x3E") == true)
    }

    /// Found by the fuzzer: libxml2 printed iconv's "encoding error" lines to standard error.
    @Test func aDeclaredEncodingPrintsNothingOnTheSide() throws {
        let workspace = try Workspace()
        let input = MomlintProcess.packageRoot.path + "/Fixtures/Fuzz/regressions/declared-iso-2022-jp.contents"
        try workspace.write("Encoded.xcdatamodel/contents", String(contentsOfFile: input, encoding: .utf8))
        let result = try workspace.run("lint", "Encoded.xcdatamodel")
        #expect(result.standardError == "Linted 1 model: 0 errors, 0 warnings.\n")
    }

    @Test func limitOptionsRaiseAndLowerTheBounds() throws {
        let workspace = try Workspace()
        let lowered = try workspace.run("lint", "--max-entities", "1")
        #expect(lowered.status == 2)
        #expect(lowered.standardError.contains(Workspace.contents + ":"))
        #expect(lowered.standardError.contains("error: the model declares more than 1 entities"))
        #expect(lowered.standardError.contains("raise the limit with --max-entities"))

        let small = try workspace.run("lint", "--max-file-size", "100")
        #expect(small.status == 2)
        #expect(small.standardError.contains("over the limit of 100 bytes for a model; "
                    + "if the model is real, raise the limit with --max-file-size"))

        let generous = try workspace.run("lint", "--max-entities", "1000", "--max-properties", "1000",
                                         "--max-elements", "100000", "--max-file-size", "10000000")
        #expect(generous.status != 2, "\(generous.standardError)")
    }

    @Test func limitOptionsMustBePositive() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--max-properties", "0")
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("Error: --max-properties must be a whole number above 0, not 0\n"))
    }
}

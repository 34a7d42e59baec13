import Foundation
import Testing

/// The pre-commit hook as users pin it: the tag the docs name is the version momlint reports,
/// and the hook's build configuration leaves the heavy dependencies out.
@Suite struct PreCommitHookTests {
    static let root = MomlintProcess.packageRoot.path

    /// `docs/ci.md` and `.pre-commit-hooks.yaml` tell users which tag to pin; it must be the
    /// version this momlint reports, so releasing means tagging that number and the docs stay true.
    @Test(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
    func theDocumentedTagIsTheVersionMomlintReports() throws {
        let version = try MomlintProcess.run(["--version"]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        // A release number (`MAJOR.MINOR.PATCH`), the form tags and SwiftPM's `from:` take.
        #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { Int($0) != nil },
                "'\(version)' is not MAJOR.MINOR.PATCH")
        let ci = try String(contentsOfFile: Self.root + "/docs/ci.md", encoding: .utf8)
        let hooks = try String(contentsOfFile: Self.root + "/.pre-commit-hooks.yaml", encoding: .utf8)
        let pins = Self.values(after: "rev: ", in: ci + hooks) + Self.values(after: "MOMLINT_VERSION: ", in: ci)
            + Self.values(after: "from: \"", in: ci)
        #expect(pins.count >= 5)
        for pin in pins {
            #expect(pin.trimmingCharacters(in: CharacterSet(charactersIn: "\"")) == version, "docs pin \(pin), momlint is \(version)")
        }
    }

    /// The hook's entry is an executable script in the repository, and its manifest variant
    /// declares neither swift-syntax nor GRDB, only the `momlint` product.
    @Test func theHookBuildsOnlyALintOnlyMomlint() throws {
        let hooks = try String(contentsOfFile: Self.root + "/.pre-commit-hooks.yaml", encoding: .utf8)
        #expect(hooks.contains("entry: scripts/pre-commit-hook"))
        #expect(hooks.contains("language: script"))
        #expect(FileManager.default.isExecutableFile(atPath: Self.root + "/scripts/pre-commit-hook"))

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-hook-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["MOMLINT_HOOK_BUILD=1", "swift", "package", "--package-path", Self.root,
                             "--scratch-path", scratch.path, "dump-package"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let manifest = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let products = (manifest["products"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
        #expect(products == ["momlint"])
        let dependencies = String(decoding: try JSONSerialization.data(withJSONObject: manifest["dependencies"] ?? []), as: UTF8.self)
        #expect(dependencies.contains("swift-argument-parser") && dependencies.contains("Yams"))
        #expect(!dependencies.contains("swift-syntax") && !dependencies.contains("GRDB"))
    }

    /// `pre-commit run --all-files` passes every version's `contents`; the old version must not
    /// be linted by the single-version rules (it must never change) unless --all-versions.
    @Test(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
    func allFilesDoesNotLintOldVersionsOnTheirOwn() throws {
        let bundle = "Fixtures/Models/Notes.xcdatamodeld"
        let files = ["\(bundle)/Notes.xcdatamodel/contents", "\(bundle)/Notes 2.xcdatamodel/contents", "\(bundle)/.xccurrentversion"]
        let result = try MomlintProcess.run(["lint"] + files)
        #expect(!result.standardOutput.contains("Notes.xcdatamodel/contents"))
        #expect(result.standardOutput.contains("Notes 2.xcdatamodel/contents"))
        #expect(result.standardError.contains("\(bundle)/Notes.xcdatamodel/contents: note: 'Notes' is not the current version "
            + "of Notes.xcdatamodeld; linting the current version 'Notes 2' instead (old versions are linted only with --all-versions)"))
        #expect(result.standardError.contains("Linted 1 model:"))
        let all = try MomlintProcess.run(["lint", "--all-versions"] + files)
        #expect(all.standardError.contains("Linted 2 models"))
    }

    private static func values(after marker: String, in text: String) -> [String] {
        text.components(separatedBy: "\n").compactMap { line in
            guard let range = line.range(of: marker) else { return nil }
            let rest = line[range.upperBound...]
            return String(rest.prefix { !$0.isWhitespace && $0 != "," && $0 != ")" })
        }
    }
}

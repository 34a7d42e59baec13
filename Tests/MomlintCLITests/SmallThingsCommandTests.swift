import Foundation
import Testing

/// Small things users hit (issue 20, item 7), each through the built binary.
@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct SmallThingsCommandTests {
    @Test func strictQuietSaysWhyItFails() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--strict", "--quiet")
        #expect(result.status == 1)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "momlint: exit 1 because strict mode fails on 3 warnings, which --quiet does not show\n")
        // Errors are shown, so they need no explanation.
        try workspace.write("error.yml", "only_rules: [missing_inverse]\nmissing_inverse: error\n")
        let errors = try workspace.run("lint", "--strict", "--quiet", "--config", "error.yml")
        #expect(errors.status == 1)
        #expect(errors.standardError.isEmpty)
    }

    @Test func aMistypedRuleIdInASuppressionIsReported() throws {
        let workspace = try Workspace(configuration: "only_rules: [missing_inverse]\n")
        let contents = try workspace.read(Workspace.contents)
        let shelf = #"<relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf"/>"#
        #expect(contents.contains(shelf))
        try workspace.write(Workspace.contents, contents.replacingOccurrences(of: shelf, with: """
            <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf">
                        <userInfo>
                            <entry key="momlint:disable" value="missing_invers, no_action_delete_rule"/>
                        </userInfo>
                    </relationship>
            """))
        let result = try workspace.run("lint", "Library.xcdatamodeld")
        // The typo silences nothing: Book.shelf is still reported, and the entry is named.
        #expect(result.standardOutput.contains("'Book.shelf' has no inverse"))
        let warnings = result.standardError.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.count == 1, "\(result.standardError)")
        #expect(warnings.first?.hasSuffix(
            "warning: 'momlint:disable' names unknown rule id 'missing_invers', which silences nothing (did you mean 'missing_inverse'?)") == true,
            "\(result.standardError)")
        #expect(warnings.first?.hasPrefix("Library.xcdatamodeld/Library.xcdatamodel/contents:13:") == true, "\(result.standardError)")
        // --quiet keeps errors only.
        let quiet = try workspace.run("lint", "--quiet", "Library.xcdatamodeld")
        #expect(!quiet.standardError.contains("warning:"))
    }

    @Test func aSymlinkedSpellingOfAnExcludedFolderIsExcluded() throws {
        let workspace = try Workspace(configuration: "only_rules: [missing_inverse]\nexcluded: [Models]\n")
        try FileManager.default.createDirectory(atPath: workspace.path + "/Models", withIntermediateDirectories: true)
        try FileManager.default.moveItem(atPath: workspace.path + "/Library.xcdatamodeld",
                                         toPath: workspace.path + "/Models/Library.xcdatamodeld")
        try FileManager.default.createSymbolicLink(atPath: workspace.path + "/Linked", withDestinationPath: "Models")
        let result = try workspace.run("lint", "Linked/Library.xcdatamodeld")
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "Linted 0 models: 0 errors, 0 warnings.\n")
    }

    @Test func theBaselineMatchesAcrossSymlinkedSpellings() throws {
        let workspace = try Workspace()
        try FileManager.default.createSymbolicLink(atPath: workspace.path + "/Linked", withDestinationPath: workspace.path)
        let write = try workspace.run("lint", "Library.xcdatamodeld", "--write-baseline", "baseline.json")
        #expect(write.status == 0)
        let viaLink = try workspace.run("lint", "Linked/Library.xcdatamodeld", "--baseline", "baseline.json", "--strict")
        #expect(viaLink.status == 0)
        #expect(viaLink.standardOutput.isEmpty)
        #expect(viaLink.standardError == "Linted 1 model: 0 errors, 0 warnings (3 findings in the baseline not shown).\n")
    }

    @Test func everyListKeyTakesASingleValue() throws {
        let workspace = try Workspace(configuration: "only_rules: missing_inverse\n")
        let only = try workspace.run("lint", "Library.xcdatamodeld", "--reporter", "summary")
        #expect(only.status == 0)
        #expect(only.standardError.isEmpty, "no warning for a single value: \(only.standardError)")
        #expect(only.standardOutput.contains("| missing_inverse | warning  |        3 |"))
        #expect(only.standardOutput.split(separator: "\n").filter { $0.hasPrefix("| ") }.count == 4)

        try workspace.write(".momlint.yml", "disabled_rules: missing_inverse\n")
        let disabled = try workspace.run("lint", "Library.xcdatamodeld")
        #expect(!disabled.standardOutput.contains("(missing_inverse)"))
        #expect(!disabled.standardError.contains("warning:"), "no warning for a single value: \(disabled.standardError)")

        try workspace.write(".momlint.yml", "only_rules: missing_invers\n")
        let typo = try workspace.run("lint", "Library.xcdatamodeld")
        #expect(typo.standardError.contains("did you mean 'missing_inverse'?"))
    }

    @Test func writeBaselineCreatesItsFolderAsReportersDo() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--write-baseline", "new/folder/baseline.json", "--reporter", "json:other/report.json")
        #expect(result.status == 0)
        #expect(try workspace.read("new/folder/baseline.json").contains("\"schemaVersion\" : 1"))
        #expect(try workspace.read("other/report.json").contains("\"schemaVersion\""))
        // The baseline written in a subfolder still matches from there.
        let clean = try workspace.run("lint", "--baseline", "new/folder/baseline.json")
        #expect(clean.standardOutput.isEmpty)
    }

    @Test func aWholeDocumentReportCannotShareStandardOutput() throws {
        let workspace = try Workspace()
        let twoJSON = try workspace.run("lint", "--reporter", "json", "--reporter", "json")
        #expect(twoJSON.status == 2)
        #expect(twoJSON.standardOutput.isEmpty)
        #expect(twoJSON.standardError == "error: the 'json' report is one document and cannot share standard output with "
            + "a second 'json' report; send all but one report to a file with --reporter NAME:FILE\n")
        let mixed = try workspace.run("lint", "--reporter", "xcode", "--reporter", "sarif")
        #expect(mixed.status == 2)
        #expect(mixed.standardError.contains("the 'sarif' report is one document and cannot share standard output with 'xcode'"))
        // Line-based reports may share it, and a document may go to a file beside them.
        let fine = try workspace.run("lint", "--reporter", "xcode", "--reporter", "summary", "--reporter", "json:out.json")
        #expect(fine.status == 0)
    }

    @Test func githubReporterPutsLoadFailuresFirst() throws {
        let workspace = try Workspace()
        try workspace.write("Broken.xcdatamodel/contents", "<model><entity name=\"A\">\n")
        let result = try workspace.run("lint", "Library.xcdatamodeld", "Broken.xcdatamodel", "--reporter", "github")
        #expect(result.status == 2)
        let lines = result.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("::error file=Broken.xcdatamodel/contents") == true)
        #expect(lines.count == 5)
        #expect(lines.last?.hasPrefix("momlint: Linted 1 model") == true)
    }

    /// Runs `swift package lint-models` on this package's ReportingTests fixtures (one of which
    /// is broken on purpose, so momlint exits 2). It drives SwiftPM, which must not already hold
    /// the package's build folder (`swift test` does), so it runs only when asked, from the test
    /// bundle itself after `swift build --build-tests`: `MOMLINT_PLUGIN_TEST=1
    /// .build/debug/momlintPackageTests.xctest --testing-library swift-testing --filter pluginPasses`.
    @Test(.enabled(if: ProcessInfo.processInfo.environment["MOMLINT_PLUGIN_TEST"] == "1", "set MOMLINT_PLUGIN_TEST=1"))
    func pluginPassesMomlintsExitStatusThroughAndSaysItIsBuilding() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift", "package", "lint-models", "--target", "ReportingTests"]
        process.currentDirectoryURL = MomlintProcess.packageRoot
        let merged = Pipe()
        process.standardOutput = merged
        process.standardError = merged
        try process.run()
        let output = String(decoding: merged.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(output.contains("lint-models: building momlint"))
        #expect(output.contains("lint-models: momlint could not lint every model (exit 2)"))
        // SwiftPM releases affected by swift-package-manager#7380 report any plugin failure as 1.
        #expect([1, 2].contains(process.terminationStatus))
    }
}

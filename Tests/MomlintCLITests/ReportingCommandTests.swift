import Foundation
import Testing

/// `momlint lint` reporters, configuration and baselines end to end: the built binary's standard output,
/// standard error and exit code.
@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct LintReportingCommandTests {
    /// The xcode lines a JSON report describes: the format must match it byte for byte.
    private func xcodeLines(fromJSON json: String) throws -> String {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let findings = try #require(object["findings"] as? [[String: Any]])
        return findings.map { finding in
            "\(finding["file"]!):\(finding["line"]!):\(finding["column"]!): \(finding["severity"]!): "
                + "\(finding["message"]!) (\(finding["ruleId"]!))\n"
        }.joined()
    }

    @Test func defaultReportIsXcodeOnStdoutWithTheSummaryOnStderr() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "Library.xcdatamodeld")
        #expect(result.status == 0)
        let json = try workspace.run("lint", "Library.xcdatamodeld", "--reporter", "json")
        #expect(result.standardOutput == (try xcodeLines(fromJSON: json.standardOutput)))
        #expect(result.standardOutput.split(separator: "\n").count == 3)
        #expect(result.standardOutput.hasPrefix(Workspace.contents + ":11:9: warning: 'Book.shelf' has no inverse"))
        #expect(result.standardError == "Linted 1 model: 0 errors, 3 warnings.\n")
    }

    @Test func severityOverrideAndStrictDecideTheExitCode() throws {
        let workspace = try Workspace()
        #expect(try workspace.run("lint", "--strict").status == 1)
        try workspace.write("error.yml", "missing_inverse: error\n")
        let result = try workspace.run("lint", "--config", ".momlint.yml", "--config", "error.yml")
        #expect(result.status == 1)
        #expect(result.standardOutput.contains(": error: 'Book.shelf' has no inverse"))
        try workspace.write("strict.yml", "strict: true\n")
        #expect(try workspace.run("lint", "--config", ".momlint.yml", "--config", "strict.yml").status == 1)
    }

    @Test func severalReportersInOneRun() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--reporter", "xcode", "--reporter", "sarif:reports/momlint.sarif",
                                       "--reporter", "junit:reports/momlint.xml", "--reporter", "json:reports/momlint.json")
        #expect(result.status == 0)
        #expect(result.standardOutput == (try xcodeLines(fromJSON: workspace.read("reports/momlint.json"))))
        let sarif = try JSONSerialization.jsonObject(with: Data(workspace.read("reports/momlint.sarif").utf8)) as? [String: Any]
        #expect(sarif?["version"] as? String == "2.1.0")
        #expect(try workspace.read("reports/momlint.xml").contains("<testsuites name=\"momlint\" tests=\"3\" failures=\"3\""))
    }

    @Test func withoutAReporterOnStdoutTheTerminalGetsTheSummaryLine() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--reporter", "sarif:out.sarif")
        #expect(result.standardOutput == "Linted 1 model: 0 errors, 3 warnings.\n")
        #expect(result.standardError.isEmpty)
    }

    @Test func unknownReporterIsAnErrorListingTheValidOnes() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", "--reporter", "checkstyle")
        #expect(result.status == 2)
        #expect(result.standardError == "error: unknown reporter 'checkstyle'; valid reporters: xcode, json, junit, sarif, github, summary\n")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func invalidYAMLIsExitTwoWithItsLine() throws {
        let workspace = try Workspace(configuration: "only_rules: [missing_inverse\nstrict: true\n")
        let result = try workspace.run("lint")
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix(".momlint.yml:2:7: error: invalid YAML: "))
        #expect(result.standardError.contains("invalid YAML"))
        #expect(result.standardError.split(separator: "\n").count == 1)
    }

    @Test func unknownKeysWarnButLintingGoesOn() throws {
        let workspace = try Workspace(configuration: "only_rules: [missing_inverse]\nreporters: [json]\n")
        let result = try workspace.run("lint")
        #expect(result.status == 0)
        #expect(result.standardError.hasPrefix(".momlint.yml:2:1: warning: unknown key 'reporters'"))
        #expect(result.standardOutput.split(separator: "\n").count == 3)
    }

    @Test func quietPrintsErrorsOnly() throws {
        let workspace = try Workspace()
        let quiet = try workspace.run("lint", "--quiet")
        #expect(quiet.status == 0)
        #expect(quiet.standardOutput.isEmpty && quiet.standardError.isEmpty)
        try workspace.write("error.yml", "only_rules: [missing_inverse]\nmissing_inverse: error\n")
        let errors = try workspace.run("lint", "--quiet", "--config", "error.yml")
        #expect(errors.status == 1)
        #expect(errors.standardOutput.split(separator: "\n").count == 3)
    }

    @Test func baselineHidesRecordedFindingsEvenAfterLinesMove() throws {
        let workspace = try Workspace()
        let write = try workspace.run("lint", "--write-baseline", "baseline.json")
        #expect(write.standardOutput.split(separator: "\n").count == 3)
        #expect(try workspace.read("baseline.json").contains("\"schemaVersion\" : 1"))
        let clean = try workspace.run("lint", "--baseline", "baseline.json", "--strict")
        #expect(clean.status == 0)
        #expect(clean.standardOutput.isEmpty)
        #expect(clean.standardError == "Linted 1 model: 0 errors, 0 warnings (3 findings in the baseline not shown).\n")

        // Move every element down three lines and add one relationship without an inverse.
        let original = try workspace.read(Workspace.contents)
        try workspace.write(Workspace.contents, original.replacingOccurrences(of: "    <entity name=\"Author\"", with: """
                <entity name="Branch" representedClassName="Branch" syncable="YES">
                    <relationship name="shelves" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Shelf"/>
                </entity>
                <entity name="Author"
            """))
        let shifted = try workspace.run("lint", "--baseline", "baseline.json", "--strict")
        #expect(shifted.status == 1)
        #expect(shifted.standardOutput.split(separator: "\n").map { $0.contains("'Branch.shelves'") } == [true])
    }

    @Test func badBaselineIsExitTwo() throws {
        let workspace = try Workspace()
        try workspace.write("baseline.json", "[1, 2]")
        let result = try workspace.run("lint", "--baseline", "baseline.json")
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("baseline.json: error: not a momlint baseline"))
    }

    /// pre-commit passes the changed files: `contents` paths, in any spelling, maybe with the
    /// bundle's `.xccurrentversion`. Each model must be linted, and reported, once.
    @Test func preCommitPathFormLintsEachBundleOnce() throws {
        let workspace = try Workspace()
        let result = try workspace.run("lint", Workspace.contents, "./" + Workspace.contents,
                                       "Library.xcdatamodeld/.xccurrentversion", "Library.xcdatamodeld")
        #expect(result.status == 0)
        #expect(result.standardOutput.split(separator: "\n").count == 3)
        #expect(result.standardError == "Linted 1 model: 0 errors, 3 warnings.\n")
    }

    @Test func aModelThatFailsToLoadIsExitTwoAndTheOthersAreStillReported() throws {
        let workspace = try Workspace()
        try workspace.write("Broken.xcdatamodel/contents", "<model><entity name=\"A\"></model>\n")
        let result = try workspace.run("lint", "Library.xcdatamodeld", "Broken.xcdatamodel", "--reporter", "xcode",
                                       "--reporter", "json:report.json")
        #expect(result.status == 2)
        #expect(result.standardOutput.split(separator: "\n").count == 3)
        #expect(result.standardError.contains("Broken.xcdatamodel/contents:1:"))
        #expect(try workspace.read("report.json").contains("\"loadErrors\": [\n    {"))
    }

    @Test func excludedModelsAreSkippedEvenWhenNamed() throws {
        let workspace = try Workspace(configuration: "only_rules: [missing_inverse]\nexcluded: [Library.xcdatamodeld]\n")
        let result = try workspace.run("lint", "Library.xcdatamodeld")
        #expect(result.status == 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError == "Linted 0 models: 0 errors, 0 warnings.\n")
    }
}

@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct GraphCommandTests {
    @Test func drawsMermaidAndDOT() throws {
        let workspace = try Workspace()
        let mermaid = try workspace.run("graph", "Library.xcdatamodeld")
        #expect(mermaid.status == 0)
        #expect(mermaid.standardOutput.hasPrefix("%% Library: entity-relationship diagram by momlint\nerDiagram\n"))
        // The pair Author.books / Book.author is one line, with both ends' cardinality.
        #expect(mermaid.standardOutput.contains("    Author |o--o{ Book : \"books: Cascade / author: Nullify\"\n"))
        // missing_inverse flags the three one-way relationships, each named in its label.
        #expect(mermaid.standardOutput.components(separatedBy: "[warning: missing_inverse] (no inverse)").count - 1 == 3)
        let dot = try workspace.run("graph", "Library.xcdatamodeld", "--format", "dot")
        #expect(dot.status == 0)
        #expect(dot.standardOutput.contains("digraph \"Library\" {"))
    }

    @Test func aPathHoldingSeveralModelsIsAnError() throws {
        let workspace = try Workspace()
        try FileManager.default.copyItem(atPath: workspace.path + "/Library.xcdatamodeld",
                                         toPath: workspace.path + "/Copy.xcdatamodeld")
        let result = try workspace.run("graph", ".")
        #expect(result.status == 2)
        #expect(result.standardError.contains("a graph draws one model, and this path holds 2"))
    }
}

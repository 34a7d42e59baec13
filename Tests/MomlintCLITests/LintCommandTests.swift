import Foundation
import Testing

/// `momlint lint` end to end: the built binary, its output and its exit code.
@Suite struct LintCommandTests {
    @Test func readmeExampleLintsTheBundledModel() throws {
        let output = try MomlintProcess.run(["lint", "Fixtures/Models/Notes.xcdatamodeld"])
        #expect(output.status == 0, "warnings alone do not fail the run")
        #expect(output.standardOutput.contains("""
            Fixtures/Models/Notes.xcdatamodeld/Notes 2.xcdatamodel/contents:25:9: warning: \
            'Note.editor' has no inverse; add one on 'User'
            """))
        #expect(output.standardOutput.hasSuffix("(missing_inverse)\n"))
    }

    @Test func unloadableInputExitsTwoAndOthersStillLint() throws {
        let output = try MomlintProcess.run([
            "lint", "Fixtures/Models/BadInput/Malformed.xcdatamodel", "Fixtures/Models/Notes.xcdatamodeld", "missing/path",
        ])
        #expect(output.status == 2)
        #expect(output.standardError.contains(
            "Fixtures/Models/BadInput/Malformed.xcdatamodel/contents:5:14: error: malformed XML: "
                + "Opening and ending tag mismatch: attribute line 4 and entity"))
        #expect(output.standardError.contains("missing/path: error: no such file or directory"))
        #expect(output.standardOutput.contains("'Note.editor' has no inverse"))
    }

    @Test func everyBadInputFixtureIsAnErrorNotACrash() throws {
        let folder = MomlintProcess.packageRoot.appendingPathComponent("Fixtures/Models/BadInput")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !$0.hasSuffix(".md") }
        #expect(names.count >= 12)
        for name in names.sorted() {
            let output = try MomlintProcess.run(["lint", "Fixtures/Models/BadInput/" + name])
            #expect(output.status == 2, "\(name): \(output.standardError)")
            let firstLine = output.standardError.split(separator: "\n").first.map(String.init) ?? ""
            #expect(firstLine.hasPrefix("Fixtures/Models/BadInput/" + name), "\(name): \(firstLine)")
            #expect(firstLine.contains(": error: "), "\(name): \(firstLine)")
        }
    }

    @Test func versionChoiceIsSaid() throws {
        let output = try MomlintProcess.run(["lint", "Fixtures/Models/Versioned/NoCurrentVersion.xcdatamodeld"])
        #expect(output.status == 0)
        #expect(output.standardError.contains("note: no .xccurrentversion; linting 'Shop 10', the highest of 3 versions"))
    }
}

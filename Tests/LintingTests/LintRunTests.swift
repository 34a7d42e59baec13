import DataModel
import Foundation
import Linting
import Testing

/// The path from files to findings, end to end, on the bundled example model.
@Suite struct LintRunTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    @Test func bundledExampleHasOneMissingInverse() throws {
        let bundle = Self.root + "/Fixtures/Models/Notes.xcdatamodeld"
        let run = LintRun(paths: [bundle], engine: LintEngine(rules: [MissingInverseRule.self]))
        #expect(run.loadFailures.isEmpty)
        #expect(run.reports.count == 1)
        let finding = try #require(run.findings.first)
        #expect(run.findings.count == 1)
        #expect(finding.ruleID == "missing_inverse")
        #expect(finding.severity == .warning)
        #expect(finding.location == SourceLocation(file: bundle + "/Notes 2.xcdatamodel/contents", line: 25, column: 9))
        #expect(finding.entityName == "Note")
        #expect(finding.propertyName == "editor")
        #expect(finding.message.hasPrefix("'Note.editor' has no inverse; add one on 'User'"))
        #expect(finding.message.contains("'Note' has 2 relationships to 'User' ('author', 'editor')"))
    }

    @Test func loadFailuresTravelWithTheFindingsOfOtherInputs() {
        let run = LintRun(paths: [Self.root + "/Fixtures/Models/BadInput/Malformed.xcdatamodel",
                                  Self.root + "/Fixtures/Models/Notes.xcdatamodeld"],
                          engine: LintEngine(rules: [MissingInverseRule.self]))
        #expect(run.loadFailures.count == 1)
        #expect(run.reports.count == 1)
        #expect(run.count(of: .warning) == 1)
        #expect(run.count(of: .error) == 0)
    }

    @Test func findingsAreSortedByFileLineAndRule() throws {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="B"><relationship name="z" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A"/></entity>
                <entity name="A"><relationship name="y" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="B"/></entity>
            </model>
            """
        let model = try ModelLoader().model(fromContents: Array(text.utf8), file: "inline")
        let findings = LintEngine(rules: [MissingInverseRule.self]).lint(model)
        #expect(findings.map(\.location.line) == [3, 4])
        #expect(findings.map(\.location.column) == [22, 22])
    }
}

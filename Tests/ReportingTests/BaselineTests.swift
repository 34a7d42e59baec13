import DataModel
import Foundation
import Linting
import Testing

/// Baselines hide recorded findings by rule, model file, entity and property, not by line.
@Suite struct BaselineTests {
    let folder = "/project"

    private func finding(_ rule: String, _ entity: String?, _ property: String?, line: Int,
                         file: String = "/project/M.xcdatamodeld/M.xcdatamodel/contents", message: String = "m") -> Finding {
        Finding(ruleID: rule, severity: .warning, message: message, location: .init(file: file, line: line, column: 5),
                entityName: entity, propertyName: property)
    }

    @Test func recordedFindingsStayHiddenWhenLinesMove() {
        let before = [finding("r", "Book", "title", line: 4), finding("r", "Book", "editor", line: 6)]
        let baseline = Baseline(recording: before, folder: folder)
        let after = [finding("r", "Book", "title", line: 14), finding("r", "Book", "editor", line: 19),
                     finding("r", "Book", "shelf", line: 21)]
        #expect(baseline.newFindings(among: after, folder: folder).map(\.propertyName) == ["shelf"])
    }

    @Test func entriesCountSoASecondIdenticalFindingIsNew() {
        let baseline = Baseline(recording: [finding("r", "Book", nil, line: 3)], folder: folder)
        let after = [finding("r", "Book", nil, line: 3), finding("r", "Book", nil, line: 9)]
        #expect(baseline.newFindings(among: after, folder: folder).map(\.location.line) == [9])
    }

    @Test func modelLevelFindingsAreMatchedByMessage() {
        let baseline = Baseline(recording: [finding("r", nil, nil, line: 1, message: "one")], folder: folder)
        let after = [finding("r", nil, nil, line: 2, message: "one"), finding("r", nil, nil, line: 2, message: "two")]
        #expect(baseline.newFindings(among: after, folder: folder).map(\.message) == ["two"])
    }

    @Test func filesAreComparedRelativeToTheBaseline() {
        let baseline = Baseline(recording: [finding("r", "A", "b", line: 1)], folder: folder)
        #expect(baseline.findings.map(\.file) == ["M.xcdatamodeld/M.xcdatamodel/contents"])
        // The same model reached through another path spelling still matches …
        let respelled = finding("r", "A", "b", line: 8, file: "/project/./M.xcdatamodeld/../M.xcdatamodeld/M.xcdatamodel/contents")
        #expect(baseline.newFindings(among: [respelled], folder: folder).isEmpty)
        // … while another model's finding on a same-named element does not.
        let otherModel = finding("r", "A", "b", line: 1, file: "/project/N.xcdatamodeld/N.xcdatamodel/contents")
        #expect(baseline.newFindings(among: [otherModel], folder: folder).count == 1)
    }

    @Test func roundTripsThroughAFileAndRejectsOthers() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-baseline-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let baseline = Baseline(recording: [finding("r", "A", "b", line: 1), finding("q", nil, nil, line: 1)], folder: folder)
        try baseline.write(to: path)
        #expect(try Baseline.read(from: path) == baseline)
        try "{\"schemaVersion\": 1}".write(toFile: path, atomically: true, encoding: .utf8)
        #expect(throws: BaselineError(path: path, problem: "not a momlint baseline (missing key 'findings')")) {
            try Baseline.read(from: path)
        }
        #expect(throws: BaselineError.self) { try Baseline.read(from: path + ".missing") }
    }

    @Test func aModelEditThatMovesLinesKeepsBaselinedFindingsHidden() throws {
        let original = try String(contentsOfFile: TestPaths.library + "/Library.xcdatamodel/contents", encoding: .utf8)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-shift-\(UUID().uuidString)")
        let version = folder.appendingPathComponent("Library.xcdatamodeld/Library.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let contents = version.appendingPathComponent("contents")
        try original.write(to: contents, atomically: true, encoding: .utf8)

        let engine = LintEngine(rules: TestRules.reporting)
        let first = LintRun(paths: [folder.path], engine: engine)
        #expect(first.findings.count == 3)
        let baseline = Baseline(recording: first.findings, folder: folder.path)

        // Insert an entity at the top: every finding moves down, one new finding appears.
        let shifted = original.replacingOccurrences(of: "    <entity name=\"Author\"", with: """
                <entity name="Publisher" representedClassName="Publisher" syncable="YES">
                    <attribute name="name" attributeType="String"/>
                </entity>
                <entity name="Author"
            """)
        try shifted.write(to: contents, atomically: true, encoding: .utf8)
        let second = LintRun(paths: [folder.path], engine: engine)
        let originalLines = first.findings.filter { $0.entityName != nil }.map(\.location.line)
        let movedLines = second.findings.filter { $0.entityName != nil && $0.entityName != "Publisher" }.map(\.location.line)
        #expect(movedLines.count == originalLines.count && zip(movedLines, originalLines).allSatisfy { $0 > $1 })
        let (filtered, hidden) = second.applying(baseline, folder: folder.path)
        #expect(hidden == 3)
        #expect(filtered.findings.map { "\($0.entityName ?? "").\($0.propertyName ?? "")" } == ["Publisher.name"])
    }
}

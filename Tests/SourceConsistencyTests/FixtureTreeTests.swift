import DataModel
import Foundation
import Linting
import SourceConsistency
import Testing

/// `Fixtures/SourceConsistency`, found from this file so the tests run from any directory.
let fixtureRoot: String = {
    let testsFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    return testsFolder.deletingLastPathComponent().appendingPathComponent("Fixtures/SourceConsistency").path
}()

/// Loads the fixture model and checks `sourceFolder` (relative to the fixture root) against it.
func checkFixture(_ sourceFolder: String) throws -> SourceConsistencyChecker.Report {
    let loaded = ModelLoader().load(paths: [fixtureRoot + "/Catalogue.xcdatamodeld"])
    try #require(loaded.failures.isEmpty, "\(loaded.failures)")
    return SourceConsistencyChecker(sourceDirectories: [fixtureRoot + "/" + sourceFolder])
        .findings(for: loaded.models)
}

/// `path:line:column: severity: message (rule)` with the fixture root removed.
func reportLines(_ findings: [Finding]) -> [String] {
    findings.map {
        let path = $0.location.file.replacingOccurrences(of: fixtureRoot + "/", with: "")
        return "\(path):\($0.location.line):\($0.location.column): \($0.severity.rawValue): \($0.message) (\($0.ruleID))"
    }
}

@Suite("Fixture source trees")
struct FixtureTreeTests {
    @Test("the tree with mistakes gives each finding, exactly, at its file:line:column")
    func mistakesGiveExactFindings() throws {
        let report = try checkFixture("Mistakes")
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(report.scannedFileCount == 6)
        let expected = [
            "Mistakes/Models/Counter.swift:5:5: error: 'Counter.launches' is declared 'UInt64', but Core Data has no "
                + "unsigned integer types; no signed integer holds every UInt64, so store it as Decimal or String "
                + "(unsigned_managed_property)",
            "Mistakes/Models/Item+CoreDataClass.swift:3:1: warning: class 'Item' declares no property for attribute "
                + "'Item.color'; declare it (e.g. '@NSManaged var color: String?'), or remove it from the model "
                + "(model_property_not_in_class)",
            "Mistakes/Models/Item+CoreDataClass.swift:3:1: warning: class 'Item' declares no property for attribute "
                + "'Item.notes'; declare it (e.g. '@NSManaged var notes: String?'), or remove it from the model "
                + "(model_property_not_in_class)",
            "Mistakes/Models/Item+CoreDataProperties.swift:4:5: warning: 'Item.title' is declared 'String', but "
                + "attribute 'Item.title' is optional with no default value, so it can be nil; declare it 'String?', "
                + "or give the attribute a default value (optionality_mismatch)",
            "Mistakes/Models/Item+CoreDataProperties.swift:5:5: error: 'Item.colour' is @NSManaged, but entity 'Item' "
                + "has no property 'colour'; add it to the model, or remove the declaration (did you mean 'color'?) "
                + "(managed_property_not_in_model)",
            "Mistakes/Models/Item+CoreDataProperties.swift:6:5: error: 'Item.stock' is declared 'UInt32', but Core "
                + "Data has no unsigned integer types; declare it 'Int64' over an Integer 64 attribute, the smallest "
                + "signed type that holds every UInt32 (unsigned_managed_property)",
            "Mistakes/Models/Item+CoreDataProperties.swift:7:5: error: 'Item.rating' is declared 'Int', but attribute "
                + "'Item.rating' is Integer 16 with Use Scalar Type; declare it 'Int16' (scalar_type_mismatch)",
            "Mistakes/Models/Note.swift:5:5: warning: 'Note.body' is declared 'String?', but attribute 'Note.body' is "
                + "required and has a default value, so it is never nil; declare it 'String' (optionality_mismatch)",
        ]
        #expect(reportLines(report.findings) == expected)
    }

    @Test("the clean counterpart gives no finding and no problem")
    func cleanTreeIsSilent() throws {
        let report = try checkFixture("Clean")
        #expect(report.scannedFileCount == 6)
        #expect(report.problems.isEmpty, "\(report.problems)")
        #expect(reportLines(report.findings) == [])
    }

    @Test("a file that does not parse is reported with its first syntax error; what parsed is still checked")
    func unparsableFileIsReported() throws {
        let report = try checkFixture("Unparsable")
        let problems = report.problems.map { $0.description.replacingOccurrences(of: fixtureRoot + "/", with: "") }
        #expect(problems == [
            "Unparsable/Item.swift:8:25: error: not valid Swift: expected '}' to end function (and 1 more syntax "
                + "error); only its well-formed declarations were checked",
        ])
        // The class body is incomplete, so nothing is said about properties it may have lost.
        #expect(reportLines(report.findings) == [
            "Unparsable/Item.swift:4:5: error: 'Item.stock' is declared 'UInt32', but Core Data has no unsigned "
                + "integer types; declare it 'Int64' over an Integer 64 attribute, the smallest signed type that "
                + "holds every UInt32 (unsigned_managed_property)",
        ])
    }

    @Test("a lint run carries the source findings with its model, and unreadable sources as load failures")
    func lintRunCarriesSourceFindings() throws {
        var run = LintRun(paths: [fixtureRoot + "/Catalogue.xcdatamodeld"])
        let modelFindings = run.findings.count
        run.checkSources(in: [fixtureRoot + "/Mistakes", fixtureRoot + "/Unparsable"])
        #expect(run.reports.count == 1)
        // 8 from Mistakes, 1 from Unparsable.
        #expect(run.findings.count == modelFindings + 9)
        #expect(run.findings == run.findings.sorted(by: Finding.reportOrder))
        #expect(run.loadFailures.map(\.description).map { $0.replacingOccurrences(of: fixtureRoot + "/", with: "") } == [
            "Unparsable/Item.swift:8:25: error: not valid Swift: expected '}' to end function (and 1 more syntax "
                + "error); only its well-formed declarations were checked",
        ])

        var unchanged = LintRun(paths: [fixtureRoot + "/Catalogue.xcdatamodeld"])
        unchanged.checkSources(in: [])
        #expect(unchanged.findings.count == modelFindings)
        #expect(unchanged.loadFailures.isEmpty)
    }

    @Test("versions loaded only because every version was asked for are not checked against the classes")
    func otherVersionsAreSkipped() throws {
        let model = try ModelLoader().model(
            fromContents: Array(SourceRuleExample(model: #"""
                <entity name="Counter" representedClassName="Counter">
                    <attribute name="launches" attributeType="Integer 16" usesScalarValueType="YES"/>
                </entity>
                """#, source: "").modelContents.utf8),
            file: "Old.xcdatamodel/contents",
            version: ModelVersion(bundlePath: "M.xcdatamodeld", name: "Old", bundleVersionNames: ["Old", "New"],
                                  selection: .otherVersion))
        let report = SourceConsistencyChecker(sourceDirectories: [fixtureRoot + "/Clean"]).findings(for: [model])
        #expect(report.findingsByModel == [[]])
    }
}

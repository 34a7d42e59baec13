import Foundation
import Linting
@testable import Reporting
import Testing

/// SARIF checked against the official SARIF 2.1.0 JSON schema (`Schemas/`, from OASIS) with
/// Python's `jsonschema`, and its fingerprints checked to ignore line moves.
@Suite struct SARIFReporterTests {
    static let schema = TestPaths.testsFolder + "/Schemas/sarif-schema-2.1.0.json"

    /// Python 3 with `jsonschema` (`python3 -m pip install jsonschema`), or why it cannot be used.
    static let validator: String? = {
        for python in ["/usr/bin/python3", "/usr/local/bin/python3", "/usr/bin/env"] {
            guard FileManager.default.isExecutableFile(atPath: python) else { continue }
            let arguments = python.hasSuffix("env") ? ["python3", "-c", "import jsonschema"] : ["-c", "import jsonschema"]
            if let result = try? String.runProcess(python, arguments), result.status == 0 { return python }
        }
        return nil
    }()

    /// Validates `sarif` against the schema, and checks its fingerprints are unique; returns
    /// the validator's complaint, or nil when the document is valid.
    static func schemaProblems(in sarif: String) throws -> String? {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-\(UUID().uuidString).sarif")
        try sarif.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let script = """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1])); document = json.load(open(sys.argv[2]))
            jsonschema.Draft4Validator(schema, format_checker=jsonschema.Draft4Validator.FORMAT_CHECKER).validate(document)
            prints = [r["partialFingerprints"]["momlintElement/v1"] for r in document["runs"][0]["results"]]
            assert len(prints) == len(set(prints)), "duplicate fingerprints"
            """
        let python = try #require(validator)
        let prefix = python.hasSuffix("env") ? ["python3"] : []
        let result = try String.runProcess(python, prefix + ["-c", script, schema, file.path])
        return result.status == 0 ? nil : result.error
    }

    @Test(.enabled(if: validator != nil, "needs python3 with jsonschema: python3 -m pip install jsonschema"))
    func reportValidatesAgainstTheSARIFSchema() throws {
        let problems = try Self.schemaProblems(in: SARIFReporter.report(Fixture.run(), context: Fixture.context()))
        #expect(problems == nil, "SARIF does not validate: \(problems ?? "")")
    }

    @Test func resultsCarryWhatCodeScanningNeeds() throws {
        let object = try JSONSerialization.jsonObject(with: Data(SARIFReporter.report(Fixture.run(), context: Fixture.context()).utf8))
        let run = try #require(((object as? [String: Any])?["runs"] as? [[String: Any]])?.first)
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "momlint")
        #expect(driver["version"] as? String == Fixture.toolVersion)
        #expect(driver["informationUri"] as? String != nil)
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == TestRules.reporting.map { $0.description.id })
        for rule in rules {
            #expect(((rule["help"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
            #expect(((rule["shortDescription"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        }
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 3)
        for result in results {
            let location = try #require(((result["locations"] as? [[String: Any]])?.first?["physicalLocation"]) as? [String: Any])
            let uri = try #require((location["artifactLocation"] as? [String: Any])?["uri"] as? String)
            #expect(!uri.hasPrefix("/") && !uri.hasPrefix("file:"), "uri \(uri) is not relative")
            #expect(((location["region"] as? [String: Any])?["startLine"] as? Int ?? 0) >= 1)
            #expect((result["partialFingerprints"] as? [String: String])?[FindingFingerprint.key] != nil)
        }
        let invocation = try #require((run["invocations"] as? [[String: Any]])?.first)
        #expect(invocation["executionSuccessful"] as? Bool == false)
        #expect((invocation["toolExecutionNotifications"] as? [Any])?.count == 1)
    }

    @Test func fingerprintsSurviveLineShiftsButNotOtherElements() {
        let context = Fixture.context()
        let finding = Finding(ruleID: "test_no_action", severity: .warning, message: "'Book.editor' uses No Action",
                              location: .init(file: TestPaths.library + "/Library.xcdatamodel/contents", line: 12, column: 9),
                              entityName: "Book", propertyName: "editor")
        var moved = finding
        moved.location.line = 40
        moved.location.column = 5
        var other = finding
        other.propertyName = "shelf"
        let prints = FindingFingerprint.fingerprints(for: [finding], context: context)
        #expect(prints == FindingFingerprint.fingerprints(for: [moved], context: context))
        #expect(prints != FindingFingerprint.fingerprints(for: [other], context: context))
        // Identical identities are told apart by their occurrence.
        let twice = FindingFingerprint.fingerprints(for: [finding, moved], context: context)
        #expect(Set(twice).count == 2)
    }

    @Test func pathsWithSpacesBecomeValidURIReferences() {
        #expect(SARIFReporter.uriReference("Model.xcdatamodeld/Model 2.xcdatamodel/contents")
            == "Model.xcdatamodeld/Model%202.xcdatamodel/contents")
    }
}

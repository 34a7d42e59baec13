import Foundation
import Testing
import Yams

/// Every scenario file conforms to `Fixtures/Scenarios/schema.json`, so implementers in other
/// languages can read the files with a JSON Schema validator and no code of ours.
///
/// The YAML is converted to JSON with Yams; the validation is Python's `jsonschema` (Draft
/// 2020-12), and the tests are skipped when it is not installed (`pip install jsonschema`).
@Suite(.enabled(if: pythonHasJSONSchema, "needs python3 with the jsonschema package"))
struct ScenarioSchemaTests {
    @Test func everyScenarioFileMatchesTheSchema() throws {
        let files = try FileManager.default.subpathsOfDirectory(atPath: Fixtures.scenarioDirectory)
            .filter { $0.hasSuffix(".yaml") }.sorted()
        #expect(files.count >= 60)
        let documents = try files.map { try Self.json(fromYAMLFile: Fixtures.scenarioDirectory + "/" + $0) }
        let problems = try Self.validate(documents, names: files)
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func theSchemaRejectsWhatTheFormatForbids() throws {
        let valid = try Self.json(fromYAMLFile: Fixtures.scenarioDirectory + "/deny/non-empty-to-many-fails.yaml")
        func with(_ change: (inout [String: Any]) -> Void) -> [String: Any] {
            var document = valid
            change(&document)
            return document
        }
        let invalid: [(String, [String: Any])] = [
            ("unknown feature", with { $0["features"] = ["teleport"] }),
            ("no references", with { $0["references"] = [String]() }),
            ("unknown top-level key", with { $0["author"] = "me" }),
            ("bad id", with { $0["id"] = "Deny Non Empty" }),
            ("unknown step", with { $0["steps"] = [["explode": "now"]] }),
            ("two keys in a step", with { $0["steps"] = [["delete": "a", "save": NSNull()]] }),
            ("bad merge policy", with { $0["steps"] = [["save": ["policy": "lastWriterWins"]]] }),
            ("object without fails", with { $0["steps"] = [["save": ["object": "a"]]] }),
            ("bad relationship path", with { $0["steps"] = [["expect": ["related": ["nodot": ["a"]]]]] }),
        ]
        let problems = try Self.validate(invalid.map(\.1), names: invalid.map(\.0))
        for (name, _) in invalid {
            #expect(problems.keys.contains(name), "the schema accepts a scenario with \(name)")
        }
    }

    // MARK: Helpers

    /// The JSON form of a YAML file. Timestamps stay strings, as the format specifies.
    static func json(fromYAMLFile path: String) throws -> [String: Any] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let loaded = try Yams.load(yaml: text, Resolver.default.removing(.timestamp))
        return try #require(jsonCompatible(loaded) as? [String: Any], "\(path) is not a mapping")
    }

    private static func jsonCompatible(_ value: Any?) -> Any {
        switch value {
        case nil, is NSNull: NSNull()
        case let dictionary as [AnyHashable: Any]:
            Dictionary(uniqueKeysWithValues: dictionary.map { ("\($0.key)", jsonCompatible($0.value)) })
        case let array as [Any]: array.map(jsonCompatible)
        // `!!binary` scalars: the JSON form the schema gives binary values.
        case let bytes as Data: ["base64": bytes.base64EncodedString()]
        case let value?: value
        }
    }

    /// Validates each document; returns the failing names with their first error.
    static func validate(_ documents: [[String: Any]], names: [String]) throws -> [String: String] {
        let input = try JSONSerialization.data(withJSONObject: ["schema": Fixtures.schemaPath, "documents": documents, "names": names])
        let script = """
            import json, sys, jsonschema
            request = json.load(sys.stdin)
            schema = json.load(open(request["schema"]))
            jsonschema.Draft202012Validator.check_schema(schema)
            validator = jsonschema.Draft202012Validator(schema)
            problems = {}
            for name, document in zip(request["names"], request["documents"]):
                errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
                if errors:
                    problems[name] = "/".join(map(str, errors[0].absolute_path)) + ": " + errors[0].message
            json.dump(problems, sys.stdout)
            """
        let result = try runPython(script, arguments: [], input: input)
        try #require(result.status == 0, "python failed: \(result.error)")
        return try #require(try JSONSerialization.jsonObject(with: result.output) as? [String: String])
    }
}

/// True when `python3` can import `jsonschema`.
let pythonHasJSONSchema = (try? runPython("import jsonschema", arguments: []))?.status == 0

/// Runs `python3 -c script`, feeding `input` on standard input.
func runPython(_ script: String, arguments: [String], input: Data = Data()) throws
    -> (status: Int32, output: Data, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = ["python3", "-c", script] + arguments
    let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    process.standardError = stderr
    try process.run()
    // Write and read concurrently so neither side blocks on a full pipe.
    let writer = Thread {
        stdin.fileHandleForWriting.write(input)
        try? stdin.fileHandleForWriting.close()
    }
    writer.start()
    let output = stdout.fileHandleForReading.readDataToEndOfFile()
    let error = stderr.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, output, String(decoding: error, as: UTF8.self))
}

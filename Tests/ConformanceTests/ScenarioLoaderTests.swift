import Conformance
import Foundation
import Testing

/// Scenario files with mistakes fail to load with one line naming the file, the line and
/// column, and what to do.
@Suite struct ScenarioLoaderTests {
    static let header = """
        id: test.inline
        description: a scenario written in a test
        references: [https://developer.apple.com/documentation/coredata]
        features: [delete-rules]
        model: ../../Models/Conformance/Company.xcdatamodeld

        """

    /// The error a scenario body (appended to a valid header) fails with.
    func loadError(_ steps: String, header: String = ScenarioLoaderTests.header) -> ScenarioLoadError? {
        do {
            _ = try Fixtures.scenario(header + steps)
            return nil
        } catch {
            return error
        }
    }

    @Test func aValidScenarioLoadsWithItsStepsAndLines() throws {
        let scenario = try Fixtures.scenario(Self.header + """
            steps:
              - insert: {entity: Department, as: sales, values: {name: Sales}}
              - save
              - delete: sales
              - save: {fails: 1600, object: sales, key: employees}
            """)
        #expect(scenario.id == "test.inline")
        #expect(scenario.area == "test")
        #expect(scenario.features == [.deleteRules])
        #expect(scenario.model.entity(named: "Department") != nil)
        #expect(scenario.steps.map(\.line) == [7, 8, 9, 10])
        #expect(scenario.steps[0].action == .insert(entity: "Department", object: "sales", values: ["name": .string("Sales")]))
        #expect(scenario.steps[3].action == .save(policy: .error, outcome: .fails(
            ExpectedFailure(code: 1600, object: "sales", key: "employees"))))
    }

    @Test func invalidYAMLNamesTheLine() throws {
        let error = try #require(loadError("steps:\n  - insert: {entity: Department, as: [unclosed\n"))
        #expect(error.file.hasSuffix("inline/scenario.yaml"))
        #expect(error.line != nil)
        #expect(error.message.hasPrefix("invalid YAML"))
        #expect(error.description.contains("scenario.yaml:\(error.line!):"))
    }

    @Test(arguments: [
        // (steps, line, expected message fragment)
        ("steps:\n  - insert: {entity: Nope, as: x}\n", 7, "the model has no entity 'Nope'"),
        ("steps:\n  - insert: {entity: Department, as: x, values: {budget: 3}}\n", 7, "'Department' has no attribute 'budget'"),
        ("steps:\n  - insert: {entity: Employee, as: x, values: {level: high}}\n", 7, "'Employee.level' is Integer 16"),
        ("steps:\n  - insert: {entity: Employee, as: x, values: {level: 40000}}\n", 7, "does not fit in Integer 16"),
        ("steps:\n  - delete: ghost\n", 7, "no object named 'ghost' has been inserted by an earlier step"),
        ("steps:\n  - insert: {entity: Employee, as: x}\n  - insert: {entity: Employee, as: x}\n", 8, "already inserted"),
        ("steps:\n  - insert: {entity: Employee, as: 9lives}\n", 7, "must start with a letter"),
        ("steps:\n  - insert: {entity: Employee, as: x, colour: red}\n", 7, "unknown key 'colour' in 'insert'"),
        ("steps:\n  - explode\n", 7, "unknown step 'explode'"),
        ("steps:\n  - save: {policy: lastWriterWins}\n", 7, "unknown merge policy 'lastWriterWins'"),
        ("steps:\n  - save: {key: name}\n", 7, "'key' describes a failure; add 'fails: <code>'"),
        ("steps:\n  - insert: {entity: Employee, as: a}\n  - insert: {entity: Employee, as: b}\n  - insert: {entity: Department, as: d}\n  - link: {object: d, relationship: manager, to: [a, b]}\n", 10, "'manager' is a to-one; link exactly one object"),
        ("steps:\n  - insert: {entity: Employee, as: a}\n  - insert: {entity: Employee, as: b}\n  - link: {object: a, relationship: department, to: b}\n", 9, "'department' holds 'Department' objects; 'b' is a 'Employee'"),
        ("steps:\n  - insert: {entity: Employee, as: a}\n  - expect: {related: {a.boss: null}}\n", 8, "'Employee' has no relationship 'boss'"),
        ("steps:\n  - insert: {entity: Employee, as: a}\n  - expect: {weighs: 3}\n", 8, "unknown expectation 'weighs'"),
        ("steps:\n  - insert: {entity: Employee, as: a}\n  - save: {policy: overwrite}\n", 8, "needs feature 'merge-policy'"),
        ("steps:\n  - reopen\n", 7, "needs feature 'reopen'"),
        ("steps: []\n", 6, "'steps' is empty"),
    ] as [(String, Int, String)])
    func mistakesInStepsNameTheLine(steps: String, line: Int, message: String) throws {
        let error = try #require(loadError(steps))
        #expect(error.line == line, "\(error)")
        #expect(error.message.contains(message), "\(error)")
    }

    @Test func mistakesInTheHeader() throws {
        let body = "steps:\n  - save\n"
        func error(replacing old: String, with new: String) -> ScenarioLoadError? {
            loadError(body, header: Self.header.replacingOccurrences(of: old, with: new))
        }
        #expect(error(replacing: "id: test.inline", with: "id: Test Inline")?.message.contains("lower-case kebab case") == true)
        #expect(error(replacing: "features: [delete-rules]", with: "features: [teleport]")?.message
            .contains("unknown feature 'teleport'; expected one of:") == true)
        #expect(error(replacing: "references: [https://developer.apple.com/documentation/coredata]", with: "references: []")?
            .message.contains("needs at least one source") == true)
        #expect(error(replacing: "features: [delete-rules]", with: "features: [delete-rules]\nopenQuestions: [3]")?
            .message.contains("only for scenarios tagged 'inferred'") == true)
        #expect(error(replacing: "description: a scenario written in a test\n", with: "")?.message == "a scenario needs 'description'")
        let missingModel = try #require(error(replacing: "Company.xcdatamodeld", with: "Missing.xcdatamodeld"))
        #expect(missingModel.line == 5)
        #expect(missingModel.message.contains("cannot load the model") && missingModel.message.contains("no such file"))
    }

    @Test func abstractEntitiesCannotBeInserted() throws {
        let header = Self.header.replacingOccurrences(of: "Company", with: "Cascade")
        let error = try #require(loadError("steps:\n  - insert: {entity: Container, as: c}\n", header: header))
        #expect(error.message == "'Container' is abstract and cannot be inserted; insert one of its sub-entities")
    }

    @Test func aSuiteReportsBrokenFilesAndDuplicateIDsAndLoadsTheRest() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("momlint-loader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory + "/area", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = Fixtures.modelPath("Company")
        let good = Self.header.replacingOccurrences(of: "../../Models/Conformance/Company.xcdatamodeld", with: model)
            + "steps:\n  - save\n"
        try good.write(toFile: directory + "/area/a.yaml", atomically: true, encoding: .utf8)
        try good.write(toFile: directory + "/area/b.yaml", atomically: true, encoding: .utf8)
        try "id: [".write(toFile: directory + "/area/c.yaml", atomically: true, encoding: .utf8)

        let suite = ScenarioLoader().loadSuite(in: directory)
        #expect(suite.scenarios.map(\.id) == ["test.inline"])
        #expect(suite.errors.count == 2)
        #expect(suite.errors.contains { $0.file.hasSuffix("b.yaml") && $0.message.contains("already used by") })
        #expect(suite.errors.contains { $0.file.hasSuffix("c.yaml") && $0.message.hasPrefix("invalid YAML") })
        #expect(throws: ConformanceSuiteError.self) { try ConformanceSuite.scenarios(in: directory) }
    }

    @Test func aMissingDirectoryIsAnErrorNotAnEmptySuite() {
        let suite = ScenarioLoader().loadSuite(in: "/nonexistent/scenarios")
        #expect(suite.scenarios.isEmpty)
        #expect(suite.errors.map(\.description) == ["/nonexistent/scenarios: error: no such scenario directory"])
    }
}

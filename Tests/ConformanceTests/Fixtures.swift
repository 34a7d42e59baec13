import Conformance
import DataModel
import Foundation
import Testing

/// Paths of the package's fixtures, found from this file so tests run from any directory.
enum Fixtures {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let scenarioDirectory = packageRoot.appendingPathComponent("Fixtures/Scenarios").path
    static let schemaPath = packageRoot.appendingPathComponent("Fixtures/Scenarios/schema.json").path
    static let reportPath = packageRoot.appendingPathComponent("reports/conformance.md").path

    static func modelPath(_ name: String) -> String {
        packageRoot.appendingPathComponent("Fixtures/Models/Conformance/\(name).xcdatamodeld").path
    }

    static func model(_ name: String) throws -> Model {
        let result = ModelLoader().load(paths: [modelPath(name)])
        if let failure = result.failures.first { throw failure }
        return result.models[0]
    }

    /// Parses scenario text as if it were a file in `Fixtures/Scenarios/<area>/`, so that
    /// `model: ../../Models/Conformance/<Name>.xcdatamodeld` resolves.
    static func scenario(_ yaml: String, file: String = "inline/scenario.yaml") throws(ScenarioLoadError) -> Scenario {
        try ScenarioLoader().parse(yaml: yaml, file: scenarioDirectory + "/" + file)
    }

    /// Every shipped scenario, loaded once per test process; the loader's errors fail the caller.
    static func allScenarios() throws -> [Scenario] {
        try shipped.get()
    }

    private static let shipped = Result { try ConformanceSuite.scenarios(in: scenarioDirectory) }

    static func shippedScenario(_ id: String) throws -> Scenario {
        try #require(try allScenarios().first { $0.id == id })
    }
}

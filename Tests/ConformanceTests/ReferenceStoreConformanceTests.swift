import Conformance
import Foundation
import ReferenceStore
import Testing

/// The oracle passes every scenario — and this is the one-line integration a Swift store
/// implementer copies into their own test target (README, "Conformance").
@Test(arguments: try ConformanceSuite.scenarios())
func referenceStoreConforms(_ scenario: Scenario) async throws {
    try await ConformanceSuite.check(scenario, adapter: ReferenceStore.init)
}

@Suite struct ShippedSuiteTests {
    @Test func theSuiteCoversEveryAreaOfTheIssue() throws {
        let scenarios = try Fixtures.allScenarios()
        #expect(scenarios.count >= 60)
        let areas = Set(scenarios.map(\.area))
        #expect(areas.isSuperset(of: ["nullify", "cascade", "deny", "no-action", "validation", "constraints", "inheritance"]))
        // Every merge policy is exercised against a saved object and between new objects.
        let policies = scenarios.flatMap { $0.steps }.compactMap { step -> MergePolicy? in
            if case .save(let policy, _) = step.action { return policy }
            return nil
        }
        #expect(Set(policies) == Set(MergePolicy.allCases))
    }

    @Test func everyScenarioCitesASourceAndInferredOnesSayWhy() throws {
        for scenario in try Fixtures.allScenarios() {
            #expect(!scenario.references.isEmpty, "\(scenario.id) cites nothing")
            if scenario.isInferred {
                #expect(!scenario.openQuestions.isEmpty || scenario.notes != nil,
                        "\(scenario.id) is inferred but names no open question and gives no note")
            }
        }
    }

    @Test func scenarioIDsMatchTheirFolders() throws {
        for scenario in try Fixtures.allScenarios() {
            let folder = (scenario.file as NSString).deletingLastPathComponent
            #expect((folder as NSString).lastPathComponent == scenario.area, "\(scenario.id) lives in \(folder)")
        }
    }
}

import Conformance
import Foundation
import ReferenceStore
import Testing

/// Reading the saved state while changes are pending (`expect` with `saved: true`, contract §4.8).
@Suite struct SavedStateTests {
    static let scenarioIDs = [
        "save.saved-state-keeps-pending-delete",
        "save.saved-state-hides-pending-insert",
        "save.saved-state-keeps-relationship-until-save",
        "save.saved-state-unchanged-by-failed-save",
    ]

    /// A store that answers saved-state queries from the context, pending changes included: the
    /// mistake the scenarios exist to catch.
    final class PendingAsSaved: ConformanceStore {
        let inner: ReferenceStore
        init(_ setup: StoreSetup) throws { inner = try ReferenceStore(setup) }
        func perform(_ request: StoreRequest) throws -> StoreResponse { try inner.perform(request) }
        func performOnSavedState(_ query: StoreRequest) throws -> StoreResponse { try inner.perform(query) }
    }

    /// A store that does not implement saved-state reads at all (the protocol's default).
    final class NoSavedState: ConformanceStore {
        let inner: ReferenceStore
        init(_ setup: StoreSetup) throws { inner = try ReferenceStore(setup) }
        func perform(_ request: StoreRequest) throws -> StoreResponse { try inner.perform(request) }
    }

    @Test func theShippedScenariosPassOnTheReferenceAndCatchAStoreThatReadsPendingChanges() async throws {
        let scenarios = try Self.scenarioIDs.map(Fixtures.shippedScenario)
        #expect(scenarios.allSatisfy { $0.features.contains(.savedState) })
        let reference = await ConformanceRunner().run(scenarios, adapter: ReferenceStoreAdapter())
        #expect(reference.map(\.verdict) == Array(repeating: .pass, count: scenarios.count))

        let wrong = ClosureStoreAdapter(name: "pending-as-saved") { try PendingAsSaved($0) }
        for result in await ConformanceRunner().run(scenarios, adapter: wrong) {
            guard case .fail(let message, let line) = result.verdict else {
                Issue.record("\(result.scenarioID) passed on a store that reads pending changes as saved")
                continue
            }
            #expect(message.contains("expect (saved): in the saved state, expected"), "\(message)")
            #expect(line != nil)
        }
    }

    @Test func aStoreWithoutSavedStateFailsClearlyUnlessItsAdapterDeclaresIt() async throws {
        let scenario = try Fixtures.shippedScenario("save.saved-state-hides-pending-insert")
        let silent = ClosureStoreAdapter(name: "silent") { try NoSavedState($0) }
        let failed = await ConformanceRunner().run(scenario, adapter: silent)
        guard case .fail(let message, _) = failed.verdict else {
            Issue.record("expected a failure, got \(failed.verdict)")
            return
        }
        #expect(message.contains("the store threw unsupported") && message.contains("'saved-state'"), "\(message)")

        let declared = ClosureStoreAdapter(name: "declared", unsupportedFeatures: [.savedState]) { try NoSavedState($0) }
        let skipped = await ConformanceRunner().run(scenario, adapter: declared)
        #expect(skipped.verdict == .skip(missingFeatures: [.savedState]))
    }

    @Test func theReferenceStoreAnswersFromTheLastSuccessfulSave() throws {
        let store = try ReferenceStore(model: Fixtures.model("Company"))
        _ = try store.perform(.insert(entity: "Employee", object: "alice", values: ["name": .string("Alice")]))
        #expect(try store.performOnSavedState(.exists(object: "alice")) == .exists(false))
        #expect(try store.performOnSavedState(.count(entity: "Employee")) == .count(0))
        #expect(throws: StoreAdapterError.self) { try store.performOnSavedState(.value(object: "alice", attribute: "name")) }
        #expect(try store.perform(.save(policy: .error)) == .saved)
        _ = try store.perform(.set(object: "alice", attribute: "name", value: .string("Alicia")))
        #expect(try store.performOnSavedState(.value(object: "alice", attribute: "name")) == .value(.string("Alice")))
        #expect(try store.perform(.value(object: "alice", attribute: "name")) == .value(.string("Alicia")))
        let refused = #expect(throws: StoreAdapterError.self) { try store.performOnSavedState(.delete(object: "alice")) }
        #expect(refused?.kind == .invalidRequest)
        #expect(try store.perform(.exists(object: "alice")) == .exists(true), "a saved-state read changes nothing")
    }

    @Test func savedMustBeABoolean() {
        let errors = ScenarioFormatTests.problems("""
            features: [saved-state]
            model: ../../Models/Conformance/Company.xcdatamodeld
            steps:
              - insert: {entity: Employee, as: e}
              - expect: {saved: yes please, exists: [e]}
            """)
        #expect(errors.map(\.message) == ["'saved' must be true or false"])
    }

    @Test func savedFalseIsAnOrdinaryExpectation() throws {
        let scenario = try Fixtures.scenario("""
            id: test.saved-false
            description: saved false reads the context
            references: [x]
            features: []
            model: ../../Models/Conformance/Company.xcdatamodeld
            steps:
              - insert: {entity: Employee, as: e}
              - expect: {saved: false, exists: [e]}
            """)
        guard case .expect = scenario.steps[1].action else {
            Issue.record("expected an ordinary expect, got \(scenario.steps[1])")
            return
        }
    }
}

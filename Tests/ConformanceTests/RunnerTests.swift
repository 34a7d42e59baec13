import Conformance
import Foundation
import ReferenceStore
import Testing

/// Small stores that misbehave on purpose, to show the runner contains them.
enum FakeStores {
    /// Blocks forever on its first request, as a deadlocked store would.
    final class Hanging: ConformanceStore {
        func perform(_ request: StoreRequest) throws -> StoreResponse {
            DispatchSemaphore(value: 0).wait()
            return .done
        }
    }

    /// Throws on every request.
    final class Throwing: ConformanceStore {
        func perform(_ request: StoreRequest) throws -> StoreResponse {
            throw StoreAdapterError(.storeFailure, "the disk is on fire")
        }
    }

    /// The reference store with every save answered as a success, whatever happened.
    final class AlwaysSaves: ConformanceStore {
        let inner: ReferenceStore
        init(_ setup: StoreSetup) throws { inner = try ReferenceStore(setup) }
        func perform(_ request: StoreRequest) throws -> StoreResponse {
            let response = try inner.perform(request)
            if case .saveFailed = response { return .saved }
            return response
        }
    }

    /// Records whether `close()` was called.
    final class Closing: ConformanceStore, @unchecked Sendable {
        let closed: Flag
        init(_ closed: Flag) { self.closed = closed }
        func perform(_ request: StoreRequest) throws -> StoreResponse { throw StoreAdapterError(.unsupported, "no") }
        func close() { closed.set() }
    }

    final class Flag: @unchecked Sendable {
        private let lock = NSLock()
        private var value = false
        func set() { lock.withLock { value = true } }
        var isSet: Bool { lock.withLock { value } }
    }

    static func adapter(_ name: String, unsupported: Set<Feature> = [],
                        _ open: @escaping @Sendable (StoreSetup) throws -> any ConformanceStore) -> ClosureStoreAdapter {
        ClosureStoreAdapter(name: name, unsupportedFeatures: unsupported, open: open)
    }
}

@Suite struct RunnerTests {
    let deny = try! Fixtures.shippedScenario("deny.non-empty-to-many-fails")
    let nullify = try! Fixtures.shippedScenario("nullify.to-one")
    let reference = ReferenceStoreAdapter()

    @Test func aHangingStoreFailsItsScenarioAndTheRunGoesOn() async {
        let hanging = FakeStores.adapter("hanging") { _ in FakeStores.Hanging() }
        let runner = ConformanceRunner(timeLimit: .milliseconds(200))
        let results = await runner.run([deny, nullify], adapter: hanging)
        #expect(results.count == 2)
        for result in results {
            guard case .fail(let message, _) = result.verdict else {
                Issue.record("expected a failure, got \(result.verdict)")
                continue
            }
            #expect(message.contains("did not finish within its time limit"))
        }
        // The runner is still usable afterwards.
        #expect(await runner.run(nullify, adapter: reference).passed)
    }

    @Test func aThrowingStoreFailsWithItsErrorAndTheStepsLine() async throws {
        let throwing = FakeStores.adapter("throwing") { _ in FakeStores.Throwing() }
        let result = await ConformanceRunner().run(nullify, adapter: throwing)
        guard case .fail(let message, let line) = result.verdict else {
            Issue.record("expected a failure, got \(result.verdict)")
            return
        }
        #expect(message == "insert Person 'ada': the store failed: the disk is on fire")
        #expect(line == nullify.steps[0].line)
        #expect(result.failurePlace == "\(nullify.file):\(line!)")
    }

    @Test func anAdapterThatCannotOpenAStoreFailsTheScenario() async {
        let broken = FakeStores.adapter("broken") { _ in throw StoreAdapterError(.storeFailure, "cannot create the file") }
        let result = await ConformanceRunner().run(nullify, adapter: broken)
        #expect(result.verdict == .fail(message: "the adapter could not open a store: cannot create the file", line: nil))
    }

    @Test func theStoreIsClosedEvenWhenTheScenarioFails() async {
        let flag = FakeStores.Flag()
        let closing = FakeStores.adapter("closing") { _ in FakeStores.Closing(flag) }
        #expect(await !ConformanceRunner().run(nullify, adapter: closing).passed)
        #expect(flag.isSet)
    }

    @Test func aWrongSaveOutcomeFailsWithWhatWasExpected() async throws {
        let lenient = FakeStores.adapter("lenient") { try FakeStores.AlwaysSaves($0) }
        let result = await ConformanceRunner().run(deny, adapter: lenient)
        guard case .fail(let message, let line) = result.verdict else {
            Issue.record("expected a failure, got \(result.verdict)")
            return
        }
        #expect(message == "save (error): expected the save to fail with 1600 "
            + "(NSValidationRelationshipDeniedDeleteError) on 'sales.employees', but it succeeded")
        #expect(deny.steps[6].description == "save (error)")
        #expect(line == deny.steps[6].line)
    }

    @Test func unsupportedFeaturesSkipTheScenario() async {
        let partial = FakeStores.adapter("partial", unsupported: [.deleteRules, .ordered]) { try ReferenceStore($0) }
        let result = await ConformanceRunner().run(deny, adapter: partial)
        #expect(result.verdict == .skip(missingFeatures: [.deleteRules]))
    }

    @Test func expectedFailuresKeepTheRunGreenAndUnexpectedPassesTurnItRed() async throws {
        let lenient = FakeStores.adapter("lenient") { try FakeStores.AlwaysSaves($0) }
        let results = await ConformanceRunner().run([deny, nullify], adapter: lenient)

        let none = RunSummary(adapterName: "lenient", results: results)
        #expect(none.count(of: .fail) == 1 && none.count(of: .pass) == 1)
        #expect(!none.isSuccessful)

        let listed = RunSummary(adapterName: "lenient", results: results,
                                expectedFailures: try ExpectedFailures(parsing: "# known gaps\ndeny.*  # deny is nullify here\n", file: "xfail.txt"))
        #expect(listed.outcome(of: results[0]) == .expectedFailure)
        #expect(listed.isSuccessful)
        #expect(listed.summaryLine == "lenient: 2 scenarios: 1 passed, 0 failed, 1 expected to fail")

        let stale = RunSummary(adapterName: "lenient", results: results,
                               expectedFailures: try ExpectedFailures(parsing: "deny.*\nnullify.to-one\n", file: "xfail.txt"))
        #expect(stale.outcome(of: results[1]) == .unexpectedPass)
        #expect(!stale.isSuccessful)
    }

    @Test func expectedFailureFiles() throws {
        let list = try ExpectedFailures(parsing: "\n# comment\ncascade.chain\nconstraints.*-two-inserts # merges\n", file: "x.txt")
        #expect(list.entries.map(\.pattern) == ["cascade.chain", "constraints.*-two-inserts"])
        #expect(list.entries.map(\.line) == [3, 4])
        #expect(list.contains("constraints.rollback-two-inserts"))
        #expect(!list.contains("cascade.chain-of-two"))
        #expect(list.unmatchedEntries(among: ["cascade.chain"]).map(\.pattern) == ["constraints.*-two-inserts"])

        #expect(throws: ScenarioLoadError(file: "x.txt", line: 2, column: 1,
                                          message: "'deny non-empty' is not a scenario id or glob; write one per line, comments after '#'")) {
            try ExpectedFailures(parsing: "ok.one\ndeny non-empty\n", file: "x.txt")
        }
        #expect(throws: ScenarioLoadError.self) { try ExpectedFailures(contentsOf: "/nonexistent/xfail.txt") }
    }

    @Test func theSuiteHelperThrowsOnFailureAndHonoursExpectedFailures() async throws {
        await #expect(throws: ConformanceFailure.self) {
            try await ConformanceSuite.check(deny, adapter: FakeStores.AlwaysSaves.init)
        }
        try await ConformanceSuite.check(deny, adapter: FakeStores.AlwaysSaves.init,
                                         expectedFailures: ExpectedFailures(entries: [.init(pattern: deny.id, line: 1)]))
        await #expect(throws: ConformanceFailure.self) {
            try await ConformanceSuite.check(nullify, adapter: ReferenceStore.init,
                                             expectedFailures: ExpectedFailures(entries: [.init(pattern: "nullify.*", line: 1)]))
        }
    }
}

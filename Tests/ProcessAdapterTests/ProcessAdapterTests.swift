import Conformance
import DataModel
import Foundation
import ProcessAdapter
import Testing

/// Paths into the repository and the tools the shims need.
enum Repository {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    /// The example shims are Python; without python3 their tests are skipped.
    static let hasPython: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "command -v python3 >/dev/null 2>&1"]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    /// A runner whose scenario limit only guards against a test that never ends: a loaded CI
    /// machine must not turn a slow scenario into a failure (the shims' own limits are tested).
    static let runner = ConformanceRunner(timeLimit: .seconds(120))

    /// Every scenario but `cascade.very-deep-chain`, whose 200,000 requests take a minute through
    /// a pipe to Python: CI's `momlint conformance` step runs the whole suite against the Python
    /// store, that one included, and `cascade.deep-chain` (10,000 links) stays in here.
    static func scenarios() throws -> [Scenario] {
        try ConformanceSuite.scenarios(in: path("Fixtures/Scenarios")).filter { $0.id != "cascade.very-deep-chain" }
    }

    /// A shell command running `relative` (a Python file of the repository) with python3.
    static func python(_ relative: String, _ arguments: String...) -> String {
        (["python3", "'\(path(relative))'"] + arguments).joined(separator: " ")
    }
}

@Suite(.enabled(if: Repository.hasPython, "python3 is needed to run the example shims"))
struct PythonExampleTests {
    @Test func pythonStorePassesEveryScenario() async throws {
        let adapter = try ProcessStoreAdapter.connect(command: Repository.python("Examples/python-store/shim.py"))
        #expect(adapter.unsupportedFeatures.isEmpty)
        let scenarios = try Repository.scenarios()
        #expect(scenarios.count >= 60)
        let results = await Repository.runner.run(scenarios, adapter: adapter)
        for result in results {
            #expect(result.passed, "\(result.scenarioID): \(result.verdict)")
        }
    }

    /// Contract 1.3 through a real shim: the new version travels as its export, and the
    /// store's `openFailed` comes back with its code; after it the old model still answers.
    @Test func aReopenWithAnotherVersionRoundTrips() throws {
        let adapter = try ProcessStoreAdapter.connect(command: Repository.python("Examples/python-store/shim.py"))
        let bundle = "Fixtures/Models/Conformance/Migrations/Items.xcdatamodeld"
        func version(_ name: String) throws -> (Model, String) {
            let path = Repository.path("\(bundle)/\(name).xcdatamodel")
            let result = ModelLoader().load(paths: [path])
            if let failure = result.failures.first { throw failure }
            return (result.models[0], path)
        }
        let (first, firstPath) = try version("Items")
        let store = try adapter.openStore(StoreSetup(model: first, modelPath: firstPath, scenarioID: "test.round-trip"))
        defer { store.close() }
        #expect(try store.perform(.insert(entity: "Item", object: "lamp", values: ["name": .string("Lamp")])) == .done)
        #expect(try store.perform(.save(policy: .error)) == .saved)
        let (added, addedPath) = try version("Items AddOptional")
        guard case .openFailed(let failure) = try store.reopen(with: added, modelPath: addedPath, migration: .none) else {
            Issue.record("a changed version without migration must fail with 134100")
            return
        }
        #expect(failure.code == 134100)
        #expect(try store.perform(.value(object: "lamp", attribute: "name")) == .value(.string("Lamp")))
        let (renamed, renamedPath) = try version("Items Renamed")
        #expect(try store.reopen(with: renamed, modelPath: renamedPath, migration: .lightweight) == .done)
        #expect(try store.perform(.value(object: "lamp", attribute: "title")) == .value(.string("Lamp")))
        #expect(try store.perform(.count(entity: "Entry")) == .count(1))
    }

    @Test func deviantStoreFailsExactlyItsExpectedFailures() async throws {
        let adapter = try ProcessStoreAdapter.connect(command: Repository.python("Examples/python-store-deviant/shim.py"))
        #expect(adapter.unsupportedFeatures == [.mergePolicy], "the handshake's features are skipped")
        let expected = try ExpectedFailures(contentsOf: Repository.path("Examples/python-store-deviant/expected-failures.txt"))
        let scenarios = try Repository.scenarios()
        let results = await Repository.runner.run(scenarios, adapter: adapter)
        let summary = RunSummary(adapterName: adapter.name, results: results, expectedFailures: expected)

        let failed = Set(results.filter(\.failed).map(\.scenarioID))
        let listed = Set(scenarios.map(\.id).filter(expected.contains))
        #expect(failed == listed)
        #expect(summary.isSuccessful)
        #expect(expected.unmatchedEntries(among: scenarios.map(\.id)).isEmpty, "every listed id names a scenario")
        #expect(summary.count(of: .skip) == scenarios.filter { $0.features.contains(.mergePolicy) }.count)
        // The reports say what went wrong, in the suite's words.
        let denied = try #require(results.first { $0.scenarioID == "deny.non-empty-to-many-fails" })
        guard case .fail(let message, let line) = denied.verdict else { Issue.record("expected a failure"); return }
        #expect(message.contains("expected the save to fail with 1600"))
        #expect(line != nil)
    }
}

/// Shims that break the protocol: each fails the scenario in progress with a message that says
/// what happened, and the next scenario runs on a fresh shim and passes.
@Suite(.enabled(if: Repository.hasPython, "python3 is needed to run the test shims"), .serialized)
struct MisbehavingShimTests {
    /// Runs the first two scenarios (that need no merge policy) with the shim misbehaving in
    /// the first; returns the first's failure message after checking the second passed.
    /// The request limit is generous except where a hang is the point: a loaded CI machine must
    /// not turn a slow answer into a different failure.
    func runMisbehaving(_ mode: String, requestTimeLimit: Duration = .seconds(60)) async throws -> String {
        let scenarios = Array(try Repository.scenarios().prefix(2))
        let adapter = ProcessStoreAdapter(
            command: Repository.python("Tests/ProcessAdapterTests/Shims/misbehaving.py", mode, scenarios[0].id),
            requestTimeLimit: requestTimeLimit)
        let results = await Repository.runner.run(scenarios, adapter: adapter)
        #expect(results[1].passed, "the next scenario runs on a fresh shim: \(results[1].verdict)")
        guard case .fail(let message, _) = results[0].verdict else {
            Issue.record("the misbehaving scenario passed")
            return ""
        }
        return message
    }

    @Test func crashFailsTheScenarioWithTheShimsStderr() async throws {
        let message = try await runMisbehaving("crash")
        #expect(message.contains("closed its stdout before answering request 3"), "\(message)")
        #expect(message.contains("it exited with status 1"), "\(message)")
        #expect(message.contains("  | RuntimeError: simulated crash in the store"), "\(message)")
    }

    @Test func hangFailsAtTheRequestTimeLimit() async throws {
        let started = ContinuousClock.now
        let message = try await runMisbehaving("hang", requestTimeLimit: .seconds(3))
        #expect(message.contains("did not answer request 3"), "\(message)")
        #expect(message.contains("within 3 s; it was stopped"), "\(message)")
        #expect(message.contains("misbehaving shim: about to hang"), "\(message)")
        // Not a timing assertion on the store: only that the run did not wait for the hour.
        #expect(ContinuousClock.now - started < .seconds(60))
    }

    @Test func garbageFailsTheScenario() async throws {
        let message = try await runMisbehaving("garbage")
        #expect(message.contains("printed a line that is not a JSON object: 'hello, this is not JSON' in answer to request 3"), "\(message)")
        #expect(message.contains("logs belong on stderr"), "\(message)")
    }

    @Test func wrongIDFailsTheScenario() async throws {
        let message = try await runMisbehaving("wrong-id")
        #expect(message.contains("answered request 3"), "\(message)")
        #expect(message.contains("with id 4; answer each request once, in order, echoing its id"), "\(message)")
    }

    @Test func longStderrIsTruncatedToItsEnd() async throws {
        let message = try await runMisbehaving("chatty")
        #expect(message.contains("it exited with status 3"), "\(message)")
        #expect(message.hasSuffix("  | the last words of the shim"), "\(message.suffix(200))")
        #expect(message.contains("  | …"), "the start of a long stderr is cut")
        #expect(message.count < 3000)
    }

    @Test func wrongContractVersionIsRefusedByConnect() throws {
        let command = Repository.python("Tests/ProcessAdapterTests/Shims/misbehaving.py", "wrong-version", "none")
        let error = try #require(throws: StoreAdapterError.self) { try ProcessStoreAdapter.connect(command: command) }
        #expect(error.kind == .storeFailure)
        #expect(error.message.contains("implements contract version 2.x, but this momlint runs contract 1.4"), "\(error)")
    }

    @Test func wrongContractVersionFailsEveryScenarioAndTheRunGoesOn() async throws {
        let scenarios = Array(try Repository.scenarios().prefix(2))
        let adapter = ProcessStoreAdapter(
            command: Repository.python("Tests/ProcessAdapterTests/Shims/misbehaving.py", "wrong-version", "none"))
        let results = await Repository.runner.run(scenarios, adapter: adapter)
        #expect(results.count == 2)
        for result in results {
            guard case .fail(let message, _) = result.verdict else { Issue.record("\(result.scenarioID) passed"); continue }
            #expect(message.contains("the adapter could not open a store"), "\(message)")
            #expect(message.contains("implements contract version 2.x"), "\(message)")
        }
    }

    @Test func aCommandThatCannotStartIsReportedWithTheShellsWords() throws {
        let error = try #require(throws: StoreAdapterError.self) {
            try ProcessStoreAdapter.connect(command: "/nonexistent/store-shim --flag")
        }
        #expect(error.message.contains("the shim '/nonexistent/store-shim --flag' closed its stdout before answering request 1 (hello)"), "\(error)")
        #expect(error.message.contains("it exited with status 127"), "\(error)")
        // The shell's own words, whichever pipe noticed first that the shim was gone.
        #expect(error.message.contains("Its stderr ended with:\n  | "), "\(error)")
        #expect(error.message.contains("/nonexistent/store-shim"), "\(error)")
    }
}

/// Contract §5 and docs/implementers.md §3.5: a Date answer is an ISO 8601 date and time, and
/// anything else is a protocol error naming what the shim sent, never re-read as something near.
@Suite(.enabled(if: Repository.hasPython, "python3 is needed to run the test shims"))
struct DateAnswerTests {
    static let scenario = """
        id: test.date-answer
        description: a date reads back as it was given
        references: [x]
        features: [dates]
        model: ../../Models/Conformance/Validation.xcdatamodeld
        steps:
          - insert: {entity: Account, as: acct, values: {username: ada, memberSince: 2020-06-01T00:00:00Z}}
          - expect: {values: {acct: {memberSince: 2020-06-01T00:00:00Z}}}
        """

    func run(answering text: String) async throws -> ScenarioResult.Verdict {
        let scenario = try ScenarioLoader().parse(yaml: Self.scenario,
                                                  file: Repository.path("Fixtures/Scenarios/inline/date-answer.yaml"))
        let adapter = ProcessStoreAdapter(command: Repository.python(
            "Tests/ProcessAdapterTests/Shims/misbehaving.py", "answer-value", scenario.id, "'\(text)'"))
        return await Repository.runner.run(scenario, adapter: adapter).verdict
    }

    /// `2020-06-01 12:34` was once read as midnight, and so passed.
    @Test(arguments: ["2020-06-01 12:34", "2020/06/01", "2020-06-01 00:00", "2020-06-01Tgarbage", "2020-06-01",
                      "2020-06-01T00:00:00Zjunk", "2020-05-32T00:00:00Z"])
    func anAnswerThatIsNotAnISO8601DateAndTimeFails(_ text: String) async throws {
        guard case .fail(let message, _) = try await run(answering: text) else {
            Issue.record("a shim answering '\(text)' for a date passed")
            return
        }
        #expect(message.contains("answered value 'acct.memberSince' with '\(text)', which is not an ISO 8601 date and time"),
                "\(message)")
    }

    @Test(arguments: ["2020-06-01T00:00:00Z", "2020-06-01T02:00:00+02:00", "2020-06-01T00:00:00.000Z"])
    func anISO8601DateAndTimePasses(_ text: String) async throws {
        #expect(try await run(answering: text) == .pass)
    }
}

import Dispatch
import Foundation

/// Runs scenarios against an adapter, each on a thread of its own with a time limit, so a store
/// that hangs, crashes its shim or throws fails that scenario only and the run goes on
/// (contract §8).
public struct ConformanceRunner: Sendable {
    /// The most one scenario may take, unless the scenario allows itself more (`timeLimit:` in
    /// its file; the larger wins). A scenario still running then fails, and its thread is
    /// abandoned (a thread blocked inside a store cannot be stopped from outside; the process
    /// adapter ends its child process itself).
    public var timeLimit: Duration

    public init(timeLimit: Duration = .seconds(10)) {
        self.timeLimit = timeLimit
    }

    /// Runs every scenario, one after another, in the order given; `progress`, when given,
    /// hears of each result as it comes (its position from 1, the count, the result), so a long
    /// run is never silent.
    public func run(_ scenarios: [Scenario], adapter: any StoreAdapter,
                    progress: ((Int, Int, ScenarioResult) -> Void)? = nil) async -> [ScenarioResult] {
        var results: [ScenarioResult] = []
        for (index, scenario) in scenarios.enumerated() {
            let result = await run(scenario, adapter: adapter)
            progress?(index + 1, scenarios.count, result)
            results.append(result)
        }
        return results
    }

    /// Runs one scenario: skipped when the adapter lacks a feature it needs.
    public func run(_ scenario: Scenario, adapter: any StoreAdapter) async -> ScenarioResult {
        let missing = Feature.expanded(scenario.features).intersection(Feature.expanded(adapter.unsupportedFeatures)).sorted()
        guard missing.isEmpty else {
            return ScenarioResult(scenarioID: scenario.id, adapterName: adapter.name,
                                  verdict: .skip(missingFeatures: missing), file: scenario.file, seconds: 0)
        }
        let started = ContinuousClock.now
        let limit = max(timeLimit, scenario.timeLimit ?? .zero)
        let verdict = await runOnOwnThread(ScenarioExecution(scenario: scenario, adapter: adapter), limit: limit)
        return ScenarioResult(scenarioID: scenario.id, adapterName: adapter.name, verdict: verdict,
                              file: scenario.file, seconds: (ContinuousClock.now - started) / .seconds(1))
    }

    /// A dedicated thread rather than a task: a store that blocks (a spin, a read that never
    /// returns) would otherwise hold one of the few threads Swift concurrency shares.
    private func runOnOwnThread(_ execution: ScenarioExecution, limit: Duration) async -> ScenarioResult.Verdict {
        return await withCheckedContinuation { continuation in
            let verdict = FirstVerdict(continuation)
            let thread = Thread {
                verdict.resolve(execution.run())
            }
            // Deep cascades are iterative, but an adapter's own code may recurse; give it room.
            thread.stackSize = 16 << 20
            thread.start()
            DispatchQueue.global().asyncAfter(deadline: .now() + limit / .seconds(1)) {
                verdict.resolve(.fail(message: "the scenario did not finish within its time limit of \(limit); "
                    + "the store was abandoned", line: nil))
            }
        }
    }
}

/// Resumes a continuation with whichever verdict comes first, the scenario's or the timer's.
private final class FirstVerdict: @unchecked Sendable {
    // Guarded by `lock`.
    private var continuation: CheckedContinuation<ScenarioResult.Verdict, Never>?
    private let lock = NSLock()

    init(_ continuation: CheckedContinuation<ScenarioResult.Verdict, Never>) {
        self.continuation = continuation
    }

    func resolve(_ verdict: ScenarioResult.Verdict) {
        // Resumed outside the lock: only the first caller finds the continuation.
        let pending = lock.withLock { continuation.take() }
        pending?.resume(returning: verdict)
    }
}

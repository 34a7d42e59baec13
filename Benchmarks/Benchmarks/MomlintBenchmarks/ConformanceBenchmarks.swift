import Benchmark
import Conformance
import Foundation
import ProcessAdapter
import ReferenceStore
import SQLiteStore

/// The conformance suite end to end — load every scenario, run each against a fresh store —
/// once per adapter. Adding an adapter's benchmark is one line here.
enum ConformanceBenchmarks {
    /// Every adapter to benchmark, one line each. The SQLite store's cascade benchmarks are in
    /// `CascadeBenchmarks`.
    static let adapters: [any StoreAdapter] = [
        ReferenceStoreAdapter(),
        SQLiteStoreAdapter(),
        // The same store closing and reopening its file after every save: the price of
        // answering everything from disk.
        SQLiteStoreAdapter(reopensAfterEachSave: true),
        // A store in another language through `exec:`: the Python example, so the figure is
        // the process protocol's cost plus a simple store's.
        ProcessStoreAdapter(command: "python3 '\(repositoryRoot)/Examples/python-store/shim.py'"),
    ]

    /// The repository holding this package, so the harness finds the example store from any
    /// working directory.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    /// The adapter's name without the repository's location, which differs between machines
    /// and is not what the report is about: `exec:python3 'Examples/python-store/shim.py'`.
    static func benchmarkName(of adapter: any StoreAdapter) -> String {
        "Conformance " + adapter.name.replacingOccurrences(of: repositoryRoot + "/", with: "")
    }

    static func register(settings: BenchmarkSettings) {
        for adapter in adapters {
            let limits = settings.isSmoke ? (maxIterations: 1, maxDuration: Duration.seconds(60))
                                          : (maxIterations: 100, maxDuration: Duration.seconds(10))
            Benchmark(
                benchmarkName(of: adapter),
                configuration: .init(maxDuration: limits.maxDuration, maxIterations: limits.maxIterations)
            ) { benchmark in
                let scenarios: [Scenario]
                do {
                    scenarios = try ConformanceSuite.scenarios()
                } catch {
                    benchmark.error("the conformance scenarios did not load: \(error)")
                    return
                }
                let results = await ConformanceRunner().run(scenarios, adapter: adapter)
                // A store that fails a scenario is not doing the work being measured.
                if let failed = results.first(where: \.failed) {
                    benchmark.error("\(adapter.name) failed scenario '\(failed.scenarioID)' (\(failed.failurePlace))")
                }
                blackHole(results)
            }
        }
    }
}

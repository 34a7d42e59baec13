import Benchmark
import Conformance
import ReferenceStore

/// The conformance suite end to end — load every scenario, run each against a fresh store —
/// once per adapter. Adding an adapter's benchmark is one line here.
enum ConformanceBenchmarks {
    /// Every adapter to benchmark. The SQLite adapter (issue: SQLite store) and the process
    /// adapter join with one line each when they land, e.g. `SQLiteStoreAdapter()`; the
    /// SQLite issue's cascade benchmarks belong beside them in a file of their own.
    static let adapters: [any StoreAdapter] = [
        ReferenceStoreAdapter(),
    ]

    static func register(settings: BenchmarkSettings) {
        for adapter in adapters {
            let limits = settings.isSmoke ? (maxIterations: 1, maxDuration: Duration.seconds(60))
                                          : (maxIterations: 100, maxDuration: Duration.seconds(10))
            Benchmark(
                "Conformance \(adapter.name)",
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
                blackHole(results)
            }
        }
    }
}

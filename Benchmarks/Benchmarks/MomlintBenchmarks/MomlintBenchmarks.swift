import Benchmark
import DataModel
import Linting

/// momlint's benchmarks: loading alone, and loading plus every rule in `RuleCatalogue.all`,
/// on synthetic models of growing size; then the conformance suite on each adapter, and the
/// SQLite store's cascade deletions against plain SQL.
/// `scripts/benchmarks.sh` runs them, times the parse-only floor (`xmllint --noout`) on the
/// same files, and writes `reports/benchmarks.md`.
let benchmarks: @Sendable () -> Void = {
    let settings = BenchmarkSettings.fromEnvironment()
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident, .mallocCountTotal],
        warmupIterations: settings.isSmoke ? 0 : 1
    )

    for entityCount in settings.entityCounts {
        let limits = settings.iterationLimits(forEntities: entityCount)
        let configuration = Benchmark.Configuration(maxDuration: limits.maxDuration, maxIterations: limits.maxIterations)
        let files = SyntheticModelFiles(entities: entityCount, settings: settings)
        let bundle = files.bundlePath
        // In setup, so generating the model is never measured.
        let generate: Benchmark.BenchmarkSetupHook = { try files.generate() }

        // The clock stops before the result is freed: `momlint lint` never frees its run (the
        // kernel reclaims it at exit, see `KeptUntilExit`), so freeing is not part of its time.
        Benchmark("Load \(entityCount)", configuration: configuration, closure: { benchmark in
            let loaded = ModelLoader().load(paths: [bundle])
            if let failure = loaded.failures.first { benchmark.error("\(failure)") }
            blackHole(loaded)
            withExtendedLifetime(loaded) { benchmark.stopMeasurement() }
        }, setup: generate)

        Benchmark("Lint \(entityCount)", configuration: configuration, closure: { benchmark in
            // What `momlint lint` does, in process: load, then every rule over every model.
            let run = LintRun(paths: [bundle])
            if let failure = run.loadFailures.first { benchmark.error("\(failure)") }
            blackHole(run)
            withExtendedLifetime(run) { benchmark.stopMeasurement() }
        }, setup: generate)
    }

    ConformanceBenchmarks.register(settings: settings)
    CascadeBenchmarks.register(settings: settings)
    SwiftDataBenchmarks.register(settings: settings)
}

import Benchmark
import DataModel
import Linting
import ModelDiff
import ModelGenerator
import VersionHashes

/// momlint's benchmarks: loading alone, and loading plus every rule in `RuleCatalogue.all`,
/// on synthetic models of growing size; then the conformance suite on each adapter, and the
/// SQLite store's cascade deletions and in-place migrations against plain SQL.
/// `scripts/benchmarks.sh` runs them, times the parse-only floors (`xmllint --noout`,
/// `xmllint --stream --noout`, `Benchmarks/SAXFloor/sax-floor.c`) on the same files, and writes
/// `reports/benchmarks.md`.
let benchmarks: @Sendable () -> Void = {
    let settings = BenchmarkSettings.fromEnvironment()
    // No allocation counting (`.mallocCountTotal` and the other malloc metrics) in any
    // benchmark: ordo-one/malloc-interposer 1.6.1 frees an exiting thread's counter block in a
    // thread-exit destructor without clearing the thread-local pointer to it, so an allocation
    // counted by a later destructor of that thread writes into freed memory. Loading and linting
    // use worker threads (and Dispatch retires idle ones at any moment), so while counting was on
    // the benchmark process died with SIGSEGV now and then — CI's smoke run among them. With
    // counting never enabled, the preloaded interposer never creates a counter block.
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .cpuTotal, .peakMemoryResident],
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

        // Two versions of this size (two seeds, so nearly every element differs), loaded in
        // setup; only the diff is measured. Issue 22's target: at most twice "Load" of both.
        let versions = LoadedVersions()
        Benchmark("Diff \(entityCount)", configuration: configuration, closure: { benchmark in
            guard let older = versions.older, let newer = versions.newer else {
                benchmark.error("the two versions did not load")
                return
            }
            let diff = SchemaDiff(from: older, to: newer)
            blackHole(diff)
            withExtendedLifetime(diff) { benchmark.stopMeasurement() }
        }, setup: { try versions.load(entities: entityCount, seeds: (settings.seed, settings.seed + 1)) })
    }

    // Core Data's version hashes of a loaded model (loaded in setup; only hashing is measured),
    // against `Load N`. Issue 35's target: hashing the 10,000-entity model costs at most 20% of
    // loading it.
    for entityCount in settings.entityCounts {
        let limits = settings.iterationLimits(forEntities: entityCount)
        let configuration = Benchmark.Configuration(maxDuration: limits.maxDuration, maxIterations: limits.maxIterations)
        let versions = LoadedVersions()
        Benchmark("Hash \(entityCount)", configuration: configuration, closure: { benchmark in
            guard let model = versions.older else {
                benchmark.error("the model did not load")
                return
            }
            let hashes = VersionHasher.hashes(of: model)
            blackHole(hashes)
            withExtendedLifetime(hashes) { benchmark.stopMeasurement() }
        }, setup: { try versions.load(entities: entityCount, seeds: (settings.seed, settings.seed + 1)) })
    }

    ConformanceBenchmarks.register(settings: settings)
    CascadeBenchmarks.register(settings: settings)
    MigrationBenchmarks.register(settings: settings)
    SwiftDataBenchmarks.register(settings: settings)
    SwiftDataVersionsBenchmarks.register(settings: settings)
}

/// Two synthetic versions of one size, parsed once by the benchmark's setup and read by its
/// iterations (which never run at the same time as setup).
final class LoadedVersions: @unchecked Sendable {
    private(set) var older: Model?
    private(set) var newer: Model?

    func load(entities: Int, seeds: (UInt64, UInt64)) throws {
        guard older == nil else { return }
        let loader = ModelLoader()
        older = try loader.model(fromContents: Array(SyntheticModel(entityCount: entities, seed: seeds.0).contents().utf8),
                                 file: "older/contents")
        newer = try loader.model(fromContents: Array(SyntheticModel(entityCount: entities, seed: seeds.1).contents().utf8),
                                 file: "newer/contents")
    }
}

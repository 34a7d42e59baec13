import Foundation
import SQLiteCascadeBenchmark

/// What a run measures, from the environment `scripts/benchmarks.sh` sets, so the harness and
/// the script (which times `xmllint` and `momlint lint` on the same files) agree.
///
/// - `MOMLINT_BENCHMARK_SMOKE=1`: tiny sizes, one iteration each; proves the benchmarks build
///   and run, measures nothing worth reading (CI).
/// - `MOMLINT_BENCHMARK_MODELS=DIR`: where the synthetic models live; default a folder in the
///   temporary directory.
/// - `MOMLINT_BENCHMARK_SEED=N`: the generator's seed; default 1.
struct BenchmarkSettings {
    /// Entity counts of the synthetic models: each 10x the one before, for the growth check.
    var entityCounts: [Int]
    /// The SQLite store's cascade data sets: the issue's sizes, or a hundred objects each.
    var cascadeShapes: [CascadeShape]
    /// Notes in the store the migration benchmarks migrate: the issue's 100,000, or 1,000.
    var migrationRows: Int
    var isSmoke: Bool
    var modelsFolder: String
    var seed: UInt64

    static let fullEntityCounts = [10, 100, 1_000, 10_000]
    static let smokeEntityCounts = [10, 100]
    static let fullCascadeShapes = [CascadeShape.issueFanOut, .issueChain]
    static let smokeCascadeShapes = [CascadeShape.fanOut(children: 100), .chain(length: 100)]

    static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> Self {
        let isSmoke = environment["MOMLINT_BENCHMARK_SMOKE"].map { $0 == "1" || $0 == "true" } ?? false
        let seed = environment["MOMLINT_BENCHMARK_SEED"].flatMap(UInt64.init) ?? 1
        let folder = environment["MOMLINT_BENCHMARK_MODELS"].flatMap { $0.isEmpty ? nil : $0 }
            ?? (NSTemporaryDirectory() as NSString).appendingPathComponent("momlint-benchmark-models-seed\(seed)")
        return Self(entityCounts: isSmoke ? smokeEntityCounts : fullEntityCounts,
                    cascadeShapes: isSmoke ? smokeCascadeShapes : fullCascadeShapes,
                    migrationRows: isSmoke ? 1_000 : MigrationFixture.issueRows,
                    isSmoke: isSmoke, modelsFolder: folder, seed: seed)
    }

    /// Fewer iterations for big models, many for small ones, and exactly one in smoke mode.
    /// Forty for the largest (about ten seconds each): with fifteen, one busy stretch of a shared
    /// machine moved the median by a quarter.
    func iterationLimits(forEntities count: Int) -> (maxIterations: Int, maxDuration: Duration) {
        if isSmoke { return (1, .seconds(30)) }
        return count >= 10_000 ? (40, .seconds(30)) : (1_000, .seconds(5))
    }
}

import Benchmark
import Foundation
import SQLiteCascadeBenchmark

/// The SQLite store issue's cascades: a root cascading to 100,000 children and a 1,000,000-node
/// chain, each deleted through `SQLiteObjectStore` and by the plain-SQL baselines
/// (`ON DELETE CASCADE`, a recursive `DELETE`), so the report can show the store's time as a
/// ratio to them.
///
/// Deleting is destructive, so every iteration builds its data set in a new file first, outside
/// the measurement (`startMeasurement()` … `stopMeasurement()`), then checks the file is empty.
/// Building counts against `maxDuration`, which is why the iteration limits are small.
enum CascadeBenchmarks {
    /// SQLite runs foreign-key actions as triggers, whose recursion depth is limited to 1,000
    /// by default (SQLITE_MAX_TRIGGER_DEPTH, https://www.sqlite.org/limits.html): deleting the
    /// head of a 1,000-node chain works, of a 1,001-node chain fails with "too many levels of
    /// trigger recursion". A longer chain is not benchmarked with `ON DELETE CASCADE`; the
    /// recursive `DELETE` is its baseline, and the report says why the column is empty.
    static let longestForeignKeyCascadeChain = 1_000

    static func register(settings: BenchmarkSettings) {
        for shape in settings.cascadeShapes {
            for deletion in CascadeDeletion.allCases where canDelete(shape, by: deletion) {
                Benchmark(benchmarkName(shape, deletion), configuration: configuration(for: shape, settings: settings)) { benchmark in
                    do {
                        try measureDeletion(of: shape, by: deletion, in: benchmark)
                    } catch {
                        benchmark.error("\(benchmarkName(shape, deletion)): \(error)")
                    }
                }
            }
        }
    }

    /// `Cascade fan-out 100000 store`, `Cascade chain 1000000 recursiveSQL`: no commas or
    /// grouping, since the names go into the harness's CSV export, which does not quote them;
    /// `scripts/benchmarks-report.py` reads them back.
    static func benchmarkName(_ shape: CascadeShape, _ deletion: CascadeDeletion) -> String {
        switch shape {
        case .fanOut(let children): "Cascade fan-out \(children) \(deletion.rawValue)"
        case .chain(let length): "Cascade chain \(length) \(deletion.rawValue)"
        }
    }

    static func canDelete(_ shape: CascadeShape, by deletion: CascadeDeletion) -> Bool {
        guard deletion == .foreignKeyCascade, case .chain(let length) = shape else { return true }
        return length <= longestForeignKeyCascadeChain
    }

    /// No warm-up (it would build the data set once more), and few iterations: each one builds
    /// its data set anew, untimed, which for the million-node chain takes longer than the
    /// deletion itself (a few seconds through the store since deletions are resolved as sets).
    static func configuration(for shape: CascadeShape, settings: BenchmarkSettings) -> Benchmark.Configuration {
        if settings.isSmoke {
            return .init(warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 1)
        }
        switch shape {
        case .fanOut: return .init(warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 5)
        // Building the million-node chain through the store takes longer than 10 s, which left
        // one iteration of the store's deletion and a ratio that moved by a tenth between runs.
        case .chain: return .init(warmupIterations: 0, maxDuration: .seconds(45), maxIterations: 3)
        }
    }

    private static func measureDeletion(of shape: CascadeShape, by deletion: CascadeDeletion,
                                        in benchmark: Benchmark) throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("momlint-cascade-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let fixture = try CascadeFixture.prepare(shape, for: deletion,
                                                 at: folder.appendingPathComponent("cascade.sqlite").path)
        benchmark.startMeasurement()
        let deleted = Result { try fixture.deleteRoot() }
        benchmark.stopMeasurement()
        try deleted.get()

        let remaining = try fixture.remainingObjects()
        guard remaining == 0 else {
            throw CascadeBenchmarkFailure("\(remaining) of \(shape.objectCount) objects were left behind")
        }
    }
}

struct CascadeBenchmarkFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

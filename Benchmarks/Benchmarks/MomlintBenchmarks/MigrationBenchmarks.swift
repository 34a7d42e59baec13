import Benchmark
import Foundation
import SQLiteCascadeBenchmark

/// The SQLite store's in-place migration of a 100,000-note store (issue 17), through
/// `SQLiteObjectStore.migrateStore` and by the same `ALTER TABLE`/copy statements written by
/// hand, so the report can show the store's time as a ratio to plain SQL (target: 2x).
///
/// Migrating is destructive, so every iteration builds its store in a new file first, outside
/// the measurement, then checks every note was migrated.
enum MigrationBenchmarks {
    static func register(settings: BenchmarkSettings) {
        for change in MigrationChange.allCases {
            for method in MigrationMethod.allCases {
                let name = benchmarkName(settings.migrationRows, change, method)
                Benchmark(name, configuration: configuration(settings)) { benchmark in
                    do {
                        try measure(change, by: method, rows: settings.migrationRows, in: benchmark)
                    } catch {
                        benchmark.error("\(name): \(error)")
                    }
                }
            }
        }
    }

    /// `Migration 100000 add-columns store`: no commas, since the names go into the harness's
    /// CSV export; `scripts/benchmarks-report.py` reads them back.
    static func benchmarkName(_ rows: Int, _ change: MigrationChange, _ method: MigrationMethod) -> String {
        "Migration \(rows) \(change.rawValue) \(method.rawValue)"
    }

    static func configuration(_ settings: BenchmarkSettings) -> Benchmark.Configuration {
        settings.isSmoke ? .init(warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 1)
            : .init(warmupIterations: 0, maxDuration: .seconds(30), maxIterations: 10)
    }

    private static func measure(_ change: MigrationChange, by method: MigrationMethod, rows: Int,
                                in benchmark: Benchmark) throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("momlint-migration-benchmark-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }

        let fixture = try MigrationFixture.prepare(rows: rows, at: folder.appendingPathComponent("notes.sqlite").path)
        benchmark.startMeasurement()
        let migrated = Result { try fixture.migrate(change, by: method) }
        benchmark.stopMeasurement()
        try migrated.get()
        try fixture.verify(change)
    }
}

import SQLiteCascadeBenchmark
import Testing

/// The benchmark hook at a small scale: each deletion method empties the file, and the report
/// tells a failure apart from a time. Results only; the times are for the benchmark.
@Suite struct CascadeBenchmarkTests {
    @Test(arguments: CascadeDeletion.allCases)
    func everyMethodDeletesAFanOutCompletely(_ deletion: CascadeDeletion) throws {
        let scratch = try ScratchDirectory()
        let fixture = try CascadeFixture.prepare(.fanOut(children: 500), for: deletion, at: scratch.path("fan-out.sqlite"))
        #expect(try fixture.remainingObjects() == 501)
        try fixture.deleteRoot()
        #expect(try fixture.remainingObjects() == 0)
    }

    @Test func foreignKeyCascadesStopAtSQLitesTriggerDepthWhileTheStoreDoesNot() throws {
        let scratch = try ScratchDirectory()
        let comparison = try CascadeComparison.run(.chain(length: 1_500), in: scratch.url)
        #expect(comparison.seconds(.store) != nil)
        #expect(comparison.seconds(.recursiveSQL) != nil)
        let cascade = try #require(comparison.measurements.first { $0.deletion == .foreignKeyCascade })
        #expect(cascade.seconds == nil)
        #expect(cascade.failure?.contains("too many levels of trigger recursion") == true)

        let report = CascadeReport(comparisons: [comparison]).markdown
        #expect(report.contains("| a chain of 1,500 nodes | "))
        #expect(report.contains("failed¹"))
    }

    @Test func preparingRefusesToOverwriteAFile() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("taken.sqlite")
        _ = try CascadeFixture.prepare(.chain(length: 3), for: .recursiveSQL, at: path)
        #expect(throws: CascadeBenchmarkError.self) {
            try CascadeFixture.prepare(.chain(length: 3), for: .store, at: path)
        }
    }
}

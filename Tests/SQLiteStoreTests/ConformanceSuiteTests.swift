import Conformance
import SQLiteStore
import Testing

/// The scenarios' time limit here guards against a hang, nothing else. The suite once ran its
/// 216 cases in parallel, each against the runner's 10 s default, and failed on a loaded CI
/// machine; the cases now run one at a time (the store itself is tested for concurrency
/// elsewhere), each with a limit no healthy scenario approaches even under heavy load.
let hangGuard: Duration = .seconds(120)

/// The whole scenario suite on the SQLite store, with no expected failures.
@Test(.serialized, arguments: try ConformanceSuite.scenarios())
func sqliteStoreConforms(_ scenario: Scenario) async throws {
    try await ConformanceSuite.check(scenario, adapter: SQLiteStoreAdapter(), timeLimit: hangGuard)
}

/// Again, closing and reopening the file after every successful save: every later step is
/// answered from what was read back from the file, so nothing passes by living only in memory.
@Test(.serialized, arguments: try ConformanceSuite.scenarios())
func sqliteStoreConformsAcrossReopens(_ scenario: Scenario) async throws {
    try await ConformanceSuite.check(scenario, adapter: SQLiteStoreAdapter(reopensAfterEachSave: true), timeLimit: hangGuard)
}

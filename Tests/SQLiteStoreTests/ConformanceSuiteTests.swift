import Conformance
import SQLiteStore
import Testing

/// The whole scenario suite on the SQLite store, with no expected failures.
@Test(arguments: try ConformanceSuite.scenarios())
func sqliteStoreConforms(_ scenario: Scenario) async throws {
    try await ConformanceSuite.check(scenario, adapter: SQLiteStoreAdapter())
}

/// Again, closing and reopening the file after every successful save: every later step is
/// answered from what was read back from the file, so nothing passes by living only in memory.
@Test(arguments: try ConformanceSuite.scenarios())
func sqliteStoreConformsAcrossReopens(_ scenario: Scenario) async throws {
    try await ConformanceSuite.check(scenario, adapter: SQLiteStoreAdapter(reopensAfterEachSave: true))
}

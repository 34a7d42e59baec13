import DataModel
import Foundation
import SQLiteCascadeBenchmark
import Testing
@testable import SQLiteStore

/// The migration benchmark's data set and both of its methods, at a small size: the store and
/// the hand-written SQL must leave the same notes behind, or the timing compares nothing.
@Suite struct MigrationBenchmarkTests {
    @Test(arguments: MigrationChange.allCases, MigrationMethod.allCases)
    func bothMethodsMigrateEveryNote(_ change: MigrationChange, _ method: MigrationMethod) throws {
        let scratch = try ScratchDirectory()
        let fixture = try MigrationFixture.prepare(rows: 1_000, at: scratch.path("notes.sqlite"))
        try fixture.migrate(change, by: method)
        try fixture.verify(change)
        guard method == .store else { return }
        let store = try SQLiteObjectStore(path: fixture.path, model: try MigrationFixture.model(after: change))
        #expect(try store.count("Note") == 1_000)
        let folder = try #require(try store.fetch("Folder").first)
        #expect(try store.related(folder, "notes").count == 10)
    }
}

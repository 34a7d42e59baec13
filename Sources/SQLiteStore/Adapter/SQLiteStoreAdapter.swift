import Conformance
import Foundation

/// Runs the conformance suite against `SQLiteObjectStore`: each scenario gets a new database
/// file in its own temporary directory, removed when the scenario ends.
///
/// With `reopensAfterEachSave`, the store also closes and reopens its file after every
/// successful save. Nothing is pending then, so the scenario's meaning is unchanged, but every
/// later request is answered from what was read back from the file: nothing can pass by living
/// only in memory.
public struct SQLiteStoreAdapter: StoreAdapter {
    public let name: String
    public let reopensAfterEachSave: Bool
    /// Where the per-scenario directories are made; the system's temporary directory by default.
    public let scratchDirectory: URL

    public init(reopensAfterEachSave: Bool = false, scratchDirectory: URL? = nil) {
        self.name = reopensAfterEachSave ? "sqlite-reopen" : "sqlite"
        self.reopensAfterEachSave = reopensAfterEachSave
        self.scratchDirectory = scratchDirectory ?? FileManager.default.temporaryDirectory
    }

    // Every feature is supported (contract 1.4): contexts on the store run as connections of
    // their own to the scenario's file; a child context reads through its parent from a
    // scratch file (`SQLiteConformanceStore`) and its save goes to the parent.

    public func openStore(_ setup: StoreSetup) throws -> any ConformanceStore {
        let safeID = String(setup.scenarioID.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" ? $0 : "_" })
        let directory = scratchDirectory.appendingPathComponent("momlint-sqlite-\(safeID)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StoreAdapterError(.storeFailure, "cannot create a scratch directory at '\(directory.path)': \(error.localizedDescription)")
        }
        do {
            return try SQLiteConformanceStore(
                path: directory.appendingPathComponent("\(safeID).sqlite").path, setup: setup,
                reopensAfterEachSave: reopensAfterEachSave, removesDirectoryOnClose: directory)
        } catch {
            try? FileManager.default.removeItem(at: directory)
            throw error
        }
    }
}

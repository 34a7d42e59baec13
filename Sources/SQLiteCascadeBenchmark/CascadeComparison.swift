import Foundation

/// One timed deletion of a data set's root.
public struct CascadeMeasurement: Sendable {
    public var deletion: CascadeDeletion
    /// Wall-clock seconds of `deleteRoot()`, or nil when it failed.
    public var seconds: Double?
    /// Why the deletion failed, or left objects behind.
    public var failure: String?
}

/// The same data set deleted by each method, once, in the same run.
public struct CascadeComparison: Sendable {
    public var shape: CascadeShape
    public var measurements: [CascadeMeasurement]

    public func seconds(_ deletion: CascadeDeletion) -> Double? {
        measurements.first { $0.deletion == deletion }?.seconds
    }

    /// Store time over the other method's time (above 1: the store is slower).
    public func ratio(of deletion: CascadeDeletion) -> Double? {
        guard let store = seconds(.store), let other = seconds(deletion), other > 0 else { return nil }
        return store / other
    }

    /// Prepares `shape` once per deletion method in `directory` (untimed), then times each
    /// `deleteRoot()` and checks that nothing is left. A method that throws or leaves objects
    /// behind is recorded as a failure, not thrown: the foreign-key cascade cannot delete a
    /// chain deeper than SQLite's trigger depth, and the report says so.
    public static func run(_ shape: CascadeShape, in directory: URL,
                           deletions: [CascadeDeletion] = CascadeDeletion.allCases) throws -> CascadeComparison {
        var measurements: [CascadeMeasurement] = []
        for deletion in deletions {
            let path = directory.appendingPathComponent("\(deletion.rawValue)-\(UUID().uuidString).sqlite").path
            let fixture = try CascadeFixture.prepare(shape, for: deletion, at: path)
            defer {
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
            var measurement = CascadeMeasurement(deletion: deletion)
            do {
                let elapsed = try ContinuousClock().measure { try fixture.deleteRoot() }
                let remaining = try fixture.remainingObjects()
                if remaining == 0 {
                    measurement.seconds = elapsed / .seconds(1)
                } else {
                    measurement.failure = "\(remaining) of \(shape.objectCount) objects were left behind"
                }
            } catch {
                measurement.failure = "\(error)"
            }
            measurements.append(measurement)
        }
        return CascadeComparison(shape: shape, measurements: measurements)
    }
}

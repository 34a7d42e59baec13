import DataModel
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
import MomlintTestSupport
#endif

/// Git stores symlinks, so a pull request can commit a `contents` or `.xccurrentversion` that
/// links to a FIFO, a terminal or a device. The loader refuses each at once, in one line, and
/// never waits on it or reads it without end.
@Suite struct SpecialFileTests {
    /// A folder holding `M.xcdatamodel/contents` as a symlink to `target`.
    static func model(linkingContentsTo target: String) throws -> String {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-special-\(UUID().uuidString)")
        let version = folder.appendingPathComponent("M.xcdatamodel")
        try FileManager.default.createDirectory(at: version, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: version.appendingPathComponent("contents").path,
                                                   withDestinationPath: target)
        return folder.path
    }

    /// Loads `path` on another thread; nil if it has not finished within a minute. A guard
    /// against the hang this suite is about, not a measurement: a correct load takes milliseconds.
    static func loadUnlessItHangs(_ path: String) -> LoadResult? {
        final class Box: @unchecked Sendable { var result: LoadResult? }
        let box = Box()
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            box.result = ModelLoader().load(paths: [path])
            done.signal()
        }
        guard done.wait(timeout: .now() + 60) == .success else { return nil }
        return box.result
    }

    @Test func contentsLinkedToAFIFOWithAWriterIsRefusedAtOnce() throws {
        let folder = try Self.model(linkingContentsTo: "fifo")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let fifo = folder + "/M.xcdatamodel/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        // A writer that never writes, as `sleep 30 | momlint lint m` holds the pipe open.
        let writer = open(fifo, O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        let result = try #require(Self.loadUnlessItHangs(folder), "the loader waited on a FIFO")
        let error = try #require(result.failures.first)
        #expect(error.reason == .notARegularFile("a FIFO"))
        #expect(error.description == folder + "/M.xcdatamodel/contents: error: not a regular file (a FIFO); "
                    + "momlint reads only regular files, never a FIFO, a device or a terminal")
    }

    /// Formerly "the file is 268435457 bytes, over the limit": the loader read /dev/zero up to its limit.
    @Test func contentsLinkedToDevZeroIsNotARegularFile() throws {
        let folder = try Self.model(linkingContentsTo: "/dev/zero")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let result = try #require(Self.loadUnlessItHangs(folder))
        let error = try #require(result.failures.first)
        #expect(error.reason == .notARegularFile("a character device"))
        #expect(!error.description.contains("bytes"))
    }

    @Test func currentVersionLinkedToAFIFOIsRefused() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-special-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let bundle = folder + "/M.xcdatamodeld"
        try FileManager.default.createDirectory(atPath: bundle + "/M.xcdatamodel", withIntermediateDirectories: true)
        try Fixtures.contents("<entity name=\"A\" representedClassName=\"A\" syncable=\"YES\"/>")
            .write(toFile: bundle + "/M.xcdatamodel/contents", atomically: true, encoding: .utf8)
        #expect(mkfifo(folder + "/fifo", 0o600) == 0)
        let writer = open(folder + "/fifo", O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        try FileManager.default.createSymbolicLink(atPath: bundle + "/.xccurrentversion", withDestinationPath: "../fifo")
        let result = try #require(Self.loadUnlessItHangs(bundle), "the loader waited on a FIFO")
        #expect(result.failures.map(\.reason) == [.notARegularFile("a FIFO")])
    }
}

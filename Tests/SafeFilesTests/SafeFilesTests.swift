import Foundation
import SafeFiles
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A scratch folder, removed at the end of the test.
final class Scratch {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-safefiles-\(UUID().uuidString)").path
    init() throws { try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(atPath: path) }

    func kind(_ relative: String) -> mode_t {
        var status = stat()
        return lstat(path + "/" + relative, &status) == 0 ? status.st_mode & S_IFMT : 0
    }

    func text(_ relative: String) -> String? { try? String(contentsOfFile: path + "/" + relative, encoding: .utf8) }
}

@Suite struct RegularFileReaderTests {
    @Test func readsARegularFile() throws {
        let scratch = try Scratch()
        try "hello".write(toFile: scratch.path + "/a", atomically: false, encoding: .utf8)
        #expect(try RegularFileReader.bytes(atPath: scratch.path + "/a", limit: 5) == Array("hello".utf8))
        #expect(throws: FileAccessError(path: scratch.path + "/a", problem: .tooLarge(bytes: 5, limit: 4))) {
            try RegularFileReader.bytes(atPath: scratch.path + "/a", limit: 4)
        }
    }

    /// A file of 4 MiB or more is read in two halves at once: every byte lands in its place (a
    /// pattern that repeats every 251 bytes shows a half read to the wrong offset), and the
    /// limit still tells a file at it from a larger one.
    @Test func readsALargeFileInHalvesByteForByte() throws {
        let scratch = try Scratch()
        let size = (5 << 20) + 3
        let pattern = (0..<size).map { UInt8(truncatingIfNeeded: $0 % 251) }
        try Data(pattern).write(to: URL(fileURLWithPath: scratch.path + "/large"))
        #expect(try RegularFileReader.bytes(atPath: scratch.path + "/large", limit: size) == pattern)
        #expect(try RegularFileReader.bytes(atPath: scratch.path + "/large", limit: size * 2) == pattern)
        #expect(throws: FileAccessError(path: scratch.path + "/large", problem: .tooLarge(bytes: size, limit: size - 1))) {
            try RegularFileReader.bytes(atPath: scratch.path + "/large", limit: size - 1)
        }
    }

    /// Opening a FIFO for reading would wait for a writer; with a writer, reading would wait for
    /// data. Neither happens: it is refused before a byte is read.
    @Test func refusesAFIFOWithoutWaiting() throws {
        let scratch = try Scratch()
        #expect(mkfifo(scratch.path + "/fifo", 0o600) == 0)
        #expect(throws: FileAccessError(path: scratch.path + "/fifo", problem: .notARegularFile(.fifo))) {
            try RegularFileReader.bytes(atPath: scratch.path + "/fifo", limit: 100)
        }
        let writer = open(scratch.path + "/fifo", O_RDWR | O_NONBLOCK)
        defer { close(writer) }
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: "fifo")
        #expect(throws: FileAccessError(path: scratch.path + "/link", problem: .notARegularFile(.fifo))) {
            try RegularFileReader.bytes(atPath: scratch.path + "/link", limit: 100)
        }
    }

    @Test func refusesDevicesAndFolders() throws {
        let error = try #require(throws: FileAccessError.self) { try RegularFileReader.bytes(atPath: "/dev/zero", limit: 100) }
        #expect(error.problem == .notARegularFile(.characterDevice))
        #expect(error.reason == "it is not a regular file (a character device)")
        #expect(throws: FileAccessError(path: "/", problem: .notARegularFile(.directory))) {
            try RegularFileReader.bytes(atPath: "/", limit: 100)
        }
        let missing = try #require(throws: FileAccessError.self) {
            try RegularFileReader.bytes(atPath: "/nonexistent-momlint", limit: 100)
        }
        #expect(missing.reason == "no such file or directory")
    }
}

@Suite struct OutputFileWriterTests {
    @Test func createsAndReplacesARegularFileKeepingItsMode() throws {
        let scratch = try Scratch()
        try OutputFileWriter.write(Array("one".utf8), toPath: scratch.path + "/new/folder/report")
        #expect(scratch.text("new/folder/report") == "one")
        #expect(chmod(scratch.path + "/new/folder/report", 0o640) == 0)
        try OutputFileWriter.write(Array("two".utf8), toPath: scratch.path + "/new/folder/report")
        #expect(scratch.text("new/folder/report") == "two")
        var status = stat()
        stat(scratch.path + "/new/folder/report", &status)
        #expect(status.st_mode & 0o777 == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/new/folder") == ["report"],
                "no temporary file left behind")
    }

    /// The link stays a link; the file it points to gets the report.
    @Test func writesThroughASymlinkToItsTarget() throws {
        let scratch = try Scratch()
        try "old".write(toFile: scratch.path + "/target", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: "target")
        try OutputFileWriter.write(Array("new".utf8), toPath: scratch.path + "/link")
        #expect(scratch.kind("link") == S_IFLNK)
        #expect(scratch.text("target") == "new")
    }

    @Test func refusesADanglingLinkAndAFolder() throws {
        let scratch = try Scratch()
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: "nowhere")
        let dangling = try #require(throws: FileAccessError.self) {
            try OutputFileWriter.write(Array("x".utf8), toPath: scratch.path + "/link")
        }
        #expect(dangling.reason == "it is a symbolic link to nothing")
        #expect(scratch.kind("link") == S_IFLNK)
        #expect(scratch.kind("nowhere") == 0)
        let folder = try #require(throws: FileAccessError.self) {
            try OutputFileWriter.write(Array("x".utf8), toPath: scratch.path)
        }
        #expect(folder.reason == "it is a folder; name a file to write")
    }

    /// A FIFO is written through (a reader gets the report) and stays a FIFO; a FIFO nobody
    /// reads is refused instead of waited on.
    @Test func writesThroughAFIFOAndRefusesOneNobodyReads() throws {
        let scratch = try Scratch()
        let fifo = scratch.path + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        let unread = try #require(throws: FileAccessError.self) { try OutputFileWriter.write(Array("x".utf8), toPath: fifo) }
        #expect(unread.reason == "it is a FIFO that no process is reading")

        let reader = open(fifo, O_RDONLY | O_NONBLOCK)
        defer { close(reader) }
        try OutputFileWriter.write(Array("report".utf8), toPath: fifo)
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = read(reader, &buffer, buffer.count)
        #expect(count == 6)
        #expect(scratch.kind("fifo") == S_IFIFO)
    }

    @Test func failuresSayWhatFailedInWords() throws {
        let scratch = try Scratch()
        try "x".write(toFile: scratch.path + "/file", atomically: false, encoding: .utf8)
        let error = try #require(throws: FileAccessError.self) {
            try OutputFileWriter.write(Array("x".utf8), toPath: scratch.path + "/file/report")
        }
        #expect(error.reason == "not a directory")
    }
}

/// The walks (models, Swift sources, mapping models) decide from these kinds what to enter and
/// what to read; a link is reported as a link, never as what it points to.
@Suite struct FolderListingTests {
    @Test func eachEntryHasItsKind() throws {
        let scratch = try Scratch()
        try FileManager.default.createDirectory(atPath: scratch.path + "/folder", withIntermediateDirectories: true)
        try "x".write(toFile: scratch.path + "/file.swift", atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: scratch.path + "/folder")
        try #require(mkfifo(scratch.path + "/fifo", 0o600) == 0)
        let entries = try #require(FolderListing.entries(of: scratch.path))
        let kinds = Dictionary(uniqueKeysWithValues: entries.map { ($0.name, $0.kind) })
        #expect(kinds == ["folder": .folder, "file.swift": .regularFile, "link": .symbolicLink, "fifo": .other])
        #expect(FolderListing.entries(of: scratch.path + "/missing") == nil)
        #expect(FolderListing.entries(of: scratch.path + "/file.swift") == nil)
    }
}

/// The path helpers replace Foundation's `URL` on the lint's start (a tenth of a millisecond of
/// conformance lookups); they must give Foundation's answers.
@Suite struct CanonicalPathTests {
    static let spellings = [
        "", ".", "..", "/", "//", "a", "a/", "a//b", "./a", "a/./b", "a/../b", "../a", "a/b/..", "a/b/../..",
        "a/b/../../..", "/a/b", "/a/./b/", "/a/../b", "/..", "/../a", "/a/..", "Model.xcdatamodeld/Model 2.xcdatamodel",
        "Model.xcdatamodeld/./Model.xcdatamodel/contents", "dir with spaces/../x", "ü/é/..",
    ]

    @Test(arguments: spellings)
    func standardizesAsFoundationDoes(_ path: String) {
        let base = "/work/project"
        let foundation = path.hasPrefix("/") ? URL(fileURLWithPath: path) : URL(fileURLWithPath: base).appendingPathComponent(path)
        #expect(standardizedAbsolutePath(path, base: base) == foundation.standardizedFileURL.path)
    }

    @Test func theFolderOfAPathIsItsSpellingUpToTheLastSlash() {
        #expect(folderPath(of: "/a/b/contents") == "/a/b")
        #expect(folderPath(of: "/contents") == "/")
        #expect(folderPath(of: "/") == "/")
        #expect(folderPath(of: "contents") == ".")
        #expect(folderPath(of: "a/b") == "a")
    }

    @Test func resolvesLinksAndDotsOfAnExistingFile() throws {
        let scratch = try Scratch()
        let folder = scratch.path + "/real"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/contents"))
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/link", withDestinationPath: folder)
        let expected = URL(fileURLWithPath: folder + "/contents").standardizedFileURL.resolvingSymlinksInPath().path
        #expect(canonicalPath(of: scratch.path + "/link/contents") == expected)
        #expect(canonicalPath(of: scratch.path + "/real/../link/./contents") == expected)
        #expect(canonicalPath(of: scratch.path + "/missing") == nil)
    }
}

@Suite struct ChildProcessPipeTests {
    /// Both ends close on exec (no other child process inherits them), and bytes written to one
    /// end come out of the other.
    @Test func makesAPipeClosedOnExec() throws {
        let ends = try #require(ChildProcess.makePipe())
        defer {
            close(ends.read)
            close(ends.write)
        }
        #expect(fcntl(ends.read, F_GETFD) & FD_CLOEXEC != 0)
        #expect(fcntl(ends.write, F_GETFD) & FD_CLOEXEC != 0)
        var byte: UInt8 = 42
        #expect(write(ends.write, &byte, 1) == 1)
        byte = 0
        #expect(read(ends.read, &byte, 1) == 1)
        #expect(byte == 42)
    }
}

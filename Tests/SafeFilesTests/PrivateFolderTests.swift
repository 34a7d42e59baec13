import Foundation
import SafeFiles
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `PrivateFolder`: momlint removes only what it made, through descriptors, so a name swapped
/// for a link (or a file of someone else's that looks like one of momlint's) never leads a
/// removal elsewhere.
@Suite struct PrivateFolderTests {
    static func write(_ text: String, to path: String) throws {
        try text.write(toFile: path, atomically: false, encoding: .utf8)
    }

    @Test func isANewFolderOfMode0700NamedByItsPrefix() throws {
        let scratch = try Scratch()
        let first = try PrivateFolder(in: scratch.path, prefix: "momlint-test-")
        let second = try PrivateFolder(in: scratch.path + "/", prefix: "momlint-test-")
        #expect(first.path != second.path)
        for folder in [first, second] {
            let name = (folder.path as NSString).lastPathComponent
            #expect(name.hasPrefix("momlint-test-") && name.count == "momlint-test-".count + 6)
            #expect(folder.path == scratch.path + "/" + name)
            var status = stat()
            #expect(lstat(folder.path, &status) == 0)
            #expect(status.st_mode & S_IFMT == S_IFDIR)
            #expect(status.st_mode & 0o777 == 0o700)
        }
        #expect(throws: FileAccessError.self) { try PrivateFolder(in: scratch.path + "/missing", prefix: "x-") }
    }

    @Test func removesExactlyTheFilesNamedThenItselfWhenEmpty() throws {
        let scratch = try Scratch()
        let folder = try PrivateFolder(in: scratch.path, prefix: "momlint-test-")
        let created = try folder.createFile(named: "store.sqlite")
        close(created)
        // Created new: an existing name, a link included, is never opened.
        #expect(throws: FileAccessError(path: folder.path(of: "store.sqlite"), problem: .system(EEXIST))) {
            try folder.createFile(named: "store.sqlite")
        }
        try Self.write("mine", to: folder.path(of: "store.sqlite-wal"))
        folder.removeFiles(named: ["store.sqlite-wal", "store.sqlite-shm"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["store.sqlite"])
        folder.remove(withFiles: ["store.sqlite"])
        #expect(!FileManager.default.fileExists(atPath: folder.path))

        let kept = try PrivateFolder(in: scratch.path, prefix: "momlint-test-")
        try Self.write("mine", to: kept.path(of: "store.sqlite"))
        try Self.write("not momlint's", to: kept.path(of: "notes.txt"))
        kept.remove(withFiles: ["store.sqlite"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: kept.path) == ["notes.txt"])
    }

    /// The folder's path swapped for a link to another folder holding files of the same names:
    /// the removal reaches the folder momlint made (moved), never the one the link leads to.
    @Test func aPathSwappedForALinkDoesNotRedirectTheRemoval() throws {
        let scratch = try Scratch()
        let folder = try PrivateFolder(in: scratch.path, prefix: "momlint-test-")
        try Self.write("mine", to: folder.path(of: "store.sqlite"))
        let victim = scratch.path + "/victim"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: false)
        try Self.write("precious", to: victim + "/store.sqlite")
        let moved = scratch.path + "/moved"
        #expect(rename(folder.path, moved) == 0)
        try FileManager.default.createSymbolicLink(atPath: folder.path, withDestinationPath: victim)
        folder.remove(withFiles: ["store.sqlite"])
        #expect(scratch.text("victim/store.sqlite") == "precious")
        #expect(scratch.kind((folder.path as NSString).lastPathComponent) == S_IFLNK)
        #expect(try FileManager.default.contentsOfDirectory(atPath: moved).isEmpty)
    }

    /// Leftovers are folders, never links to one or files of a leftover's name, and lose only
    /// the files named.
    @Test func leftoversAreFoldersOnlyAndLoseOnlyTheFilesNamed() throws {
        let scratch = try Scratch()
        let victim = scratch.path + "/victim"
        try FileManager.default.createDirectory(atPath: victim, withIntermediateDirectories: false)
        try Self.write("precious", to: victim + "/store.sqlite")
        try FileManager.default.createSymbolicLink(atPath: scratch.path + "/left-link", withDestinationPath: victim)
        try Self.write("not a folder", to: scratch.path + "/left-file")
        try FileManager.default.createDirectory(atPath: scratch.path + "/left-empty", withIntermediateDirectories: false)
        try Self.write("mine", to: scratch.path + "/left-empty/store.sqlite")
        try FileManager.default.createDirectory(atPath: scratch.path + "/left-kept", withIntermediateDirectories: false)
        try Self.write("mine", to: scratch.path + "/left-kept/store.sqlite")
        try Self.write("not momlint's", to: scratch.path + "/left-kept/notes.txt")
        try FileManager.default.createDirectory(atPath: scratch.path + "/other", withIntermediateDirectories: false)
        try Self.write("mine", to: scratch.path + "/other/store.sqlite")

        PrivateFolder.removeLeftovers(in: scratch.path, files: ["store.sqlite", "store.sqlite-wal"]) { $0.hasPrefix("left-") }

        #expect(scratch.text("victim/store.sqlite") == "precious")
        #expect(scratch.kind("left-link") == S_IFLNK)
        #expect(scratch.text("left-file") == "not a folder")
        #expect(scratch.kind("left-empty") == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path + "/left-kept") == ["notes.txt"])
        #expect(scratch.text("other/store.sqlite") == "mine")
    }
}

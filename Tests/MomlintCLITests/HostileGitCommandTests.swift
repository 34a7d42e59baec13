import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 39, item 4: git under limits. `lint` asks git for each bundle's shipped versions; a
/// repository someone else made can make git wait forever or fail, and every way the base
/// cannot be read is now a note naming why `shipped_version_modified` did not run (it was once
/// skipped without a word, or never ended).
@Suite(.enabled(if: Workspace.momlintIsBuilt && FileManager.default.isExecutableFile(atPath: "/usr/bin/git"),
                "momlint is not built, or git is absent"))
struct HostileGitCommandTests {
    /// A repository holding the two-version Notes bundle, committed.
    static func repository() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-hostile-git-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: MomlintProcess.packageRoot.path + "/Fixtures/Models/Notes.xcdatamodeld",
                                         toPath: folder.path + "/Notes.xcdatamodeld")
        try #require(try MigrationPreCommitTests.git(["init", "-q"], in: folder) == 0)
        _ = try MigrationPreCommitTests.git(["add", "."], in: folder)
        try #require(try MigrationPreCommitTests.git(["commit", "-q", "-m", "ship"], in: folder) == 0)
        return folder
    }

    static func lint(in folder: URL, environment: [String: String]? = nil) throws -> HostileStoreCommandTests.Outcome {
        try HostileStoreCommandTests.run(["lint", "Notes.xcdatamodeld"], in: folder, environment: environment)
    }

    /// The same bundle linted outside any repository, where nothing is shipped: a base git
    /// cannot read must leave every other finding, and the exit status, as they are there.
    static func lintOutsideARepository() throws -> HostileStoreCommandTests.Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-hostile-nogit-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: MomlintProcess.packageRoot.path + "/Fixtures/Models/Notes.xcdatamodeld",
                                         toPath: folder.path + "/Notes.xcdatamodeld")
        return try lint(in: folder)
    }

    /// Every entry under `folder`, the work tree and `.git` alike, by kind, mode and bytes (a
    /// FIFO is never opened): a lint writes to none of them.
    static func state(of folder: URL) throws -> [String: String] {
        var state: [String: String] = [:]
        for name in try FileManager.default.subpathsOfDirectory(atPath: folder.path) {
            state[name] = try HostileStoreCommandTests.Scene.entryState(atPath: folder.path + "/" + name)
        }
        return state
    }

    static let note = "Notes.xcdatamodeld: note: shipped_version_modified did not run: the shipped versions could not be read from git ("

    /// `HEAD`, `config`, `packed-refs` or `objects/info/alternates` as a FIFO: git once waited
    /// on it forever.
    @Test(arguments: ["HEAD", "config", "packed-refs", "objects/info/alternates"])
    func aFIFOWhereGitReadsIsNeverWaitedOn(_ name: String) throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.path + "/.git/" + name
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try? FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        let before = try Self.state(of: folder)
        let outcome = try Self.lint(in: folder)
        #expect(outcome.seconds < 20, "\(outcome.standardError)")
        // The rest of the lint is what it is without git: the same findings, summary and exit
        // status, after the one note saying why shipped_version_modified did not run.
        let withoutGit = try Self.lintOutsideARepository()
        #expect(outcome.status != 2 && outcome.status == withoutGit.status, "\(outcome.standardError)")
        #expect(outcome.standardOutput == withoutGit.standardOutput)
        #expect(outcome.standardError == Self.note
                    + "'\(path)' is a FIFO, which git would wait on or read without end; git was not run)\n" + withoutGit.standardError)
        #expect(try Self.state(of: folder) == before, "the repository changed")
    }

    /// A FIFO git reads that the look beforehand does not know of (a loose ref): git is killed
    /// at its time limit (10 s), and the note says so.
    @Test func gitIsStoppedAtItsTimeLimit() throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let branch = try MigrationPreCommitTests.gitOutput(["symbolic-ref", "--short", "HEAD"], in: folder)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let reference = folder.path + "/.git/refs/heads/" + branch
        try FileManager.default.removeItem(atPath: reference)
        #expect(mkfifo(reference, 0o600) == 0)
        let before = try Self.state(of: folder)
        let outcome = try Self.lint(in: folder)
        #expect(outcome.seconds < 20)
        let withoutGit = try Self.lintOutsideARepository()
        #expect(outcome.status != 2 && outcome.status == withoutGit.status, "\(outcome.standardError)")
        #expect(outcome.standardOutput == withoutGit.standardOutput)
        #expect(outcome.standardError == Self.note
                    + "git did not answer within 10 s (a repository with a FIFO, a device or a slow disk where git reads))\n"
                    + withoutGit.standardError)
        #expect(try Self.state(of: folder) == before, "the repository changed")
    }

    @Test func gitMissingFromPathIsANote() throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = "/nonexistent"
        let outcome = try Self.lint(in: folder, environment: environment)
        #expect(outcome.standardError.contains(Self.note + "git is not installed (no 'git' on PATH))\n"), "\(outcome.standardError)")
    }

    @Test func aCorruptHEADIsANoteQuotingGit() throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        try Data("garbage\n".utf8).write(to: folder.appendingPathComponent(".git/HEAD"))
        let outcome = try Self.lint(in: folder)
        #expect(outcome.standardError.contains(Self.note + "git exited with status 128: fatal: "), "\(outcome.standardError)")
    }

    /// git answers "missing" both for a version added since and for an object that is gone.
    @Test func aMissingObjectIsANoteNotAnUnshippedVersion() throws {
        let folder = try Self.repository()
        defer { try? FileManager.default.removeItem(at: folder) }
        let blob = try MigrationPreCommitTests.gitOutput(["rev-parse", "HEAD:Notes.xcdatamodeld/Notes.xcdatamodel/contents"], in: folder)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        try FileManager.default.removeItem(atPath: folder.path + "/.git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))")
        let outcome = try Self.lint(in: folder)
        #expect(outcome.standardError.contains(Self.note + "HEAD lists 'Notes.xcdatamodeld/Notes.xcdatamodel/contents' but git does not have its object"),
                "\(outcome.standardError)")
    }

    /// Outside any repository there is nothing shipped and nothing to say.
    @Test func outsideARepositoryThereIsNoNote() throws {
        let outcome = try Self.lintOutsideARepository()
        #expect(!outcome.standardError.contains("note:"), "\(outcome.standardError)")
    }
}

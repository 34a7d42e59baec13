import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 39, items 6–7: paths that once made `lint` say nothing, or the wrong thing.
@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct HostilePathCommandTests {
    /// A model under a path longer than PATH_MAX was not linted, and nothing said so.
    @Test func aFolderPastPathMaxIsReported() throws {
        let workspace = try Workspace()
        // Made one level at a time from a descriptor (no path is ever that long), and removed
        // with rm, which walks the same way.
        defer {
            let remove = Process()
            remove.executableURL = URL(fileURLWithPath: "/bin/rm")
            remove.arguments = ["-rf", workspace.path + "/" + String(repeating: "d", count: 200)]
            try? remove.run()
            remove.waitUntilExit()
        }
        var folder = open(workspace.path, O_RDONLY | O_DIRECTORY)
        for _ in 0..<22 {  // 22 × 201 bytes: past Linux's 4,096 and Darwin's 1,024
            let name = String(repeating: "d", count: 200)
            #expect(mkdirat(folder, name, 0o755) == 0)
            let next = openat(folder, name, O_RDONLY | O_DIRECTORY)
            close(folder)
            folder = next
        }
        close(folder)
        let outcome = try HostileStoreCommandTests.run(["lint", "."], in: URL(fileURLWithPath: workspace.path))
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains(": error: cannot read: its path is longer than the system allows (PATH_MAX, or NAME_MAX for one name); the models in this folder, if any, were not searched for\n"))
    }

    /// A `.xccurrentversion` that is a link to itself was reported as "no .xccurrentversion".
    @Test func aLinkLoopAsXCCurrentVersionIsNamed() throws {
        let workspace = try Workspace()
        let bundle = workspace.path + "/Notes.xcdatamodeld"
        try FileManager.default.copyItem(atPath: MomlintProcess.packageRoot.path + "/Fixtures/Models/Notes.xcdatamodeld", toPath: bundle)
        try FileManager.default.removeItem(atPath: bundle + "/.xccurrentversion")
        try FileManager.default.createSymbolicLink(atPath: bundle + "/.xccurrentversion", withDestinationPath: ".xccurrentversion")
        let outcome = try workspace.run("lint", "Notes.xcdatamodeld")
        #expect(outcome.status == 2)
        #expect(outcome.standardOutput.contains(
            "Notes.xcdatamodeld/.xccurrentversion: error: cannot read: it is a symbolic link that leads to itself (a loop, or a chain of more than 40 links)\n")
            || outcome.standardError.contains(
            "Notes.xcdatamodeld/.xccurrentversion: error: cannot read: it is a symbolic link that leads to itself (a loop, or a chain of more than 40 links)\n"),
            "\(outcome.standardOutput)\(outcome.standardError)")
        #expect(!(outcome.standardOutput + outcome.standardError).contains("no .xccurrentversion"))
    }
}

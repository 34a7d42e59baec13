import DataModel
import Foundation
@testable import ModelDiff
import MomlintTestSupport
import Testing

/// A read started when the bundle is found (`ShippedVersionReads`) must answer exactly what
/// asking git per version answers: the committed file, and the staged one when the index
/// differs from both HEAD and the working tree.
@Suite(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/git")))
struct ShippedVersionReadsTests {
    /// Runs git in `folder` with a committer identity; its exit status.
    @discardableResult
    static func git(_ arguments: [String], in folder: String) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        process.arguments = ["-c", "user.name=momlint", "-c", "user.email=momlint@example.com",
                             "-c", "commit.gpgsign=false", "-C", folder] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// A git repository holding a copy of the Notes bundle (two versions) and a bundle of one
    /// committed version plus one added since; its older versions edited in the working tree
    /// and in the index.
    static func repository() throws -> (folder: String, notes: String, grown: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-reads-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let notes = folder + "/Notes.xcdatamodeld"
        try FileManager.default.copyItem(atPath: Fixtures.models + "/Notes.xcdatamodeld", toPath: notes)
        let grown = folder + "/Grown.xcdatamodeld"
        try FileManager.default.createDirectory(atPath: grown + "/Grown.xcdatamodel", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: notes + "/Notes.xcdatamodel/contents", toPath: grown + "/Grown.xcdatamodel/contents")
        try #require(try git(["init", "-q"], in: folder) == 0)
        try git(["add", "."], in: folder)
        try #require(try git(["commit", "-q", "-m", "ship"], in: folder) == 0)
        try FileManager.default.copyItem(atPath: notes + "/Notes 2.xcdatamodel", toPath: grown + "/Grown 2.xcdatamodel")
        // Notes: the older version staged with one edit, then edited again in the working tree.
        let older = notes + "/Notes.xcdatamodel/contents"
        let original = try String(contentsOfFile: older, encoding: .utf8)
        try original.replacingOccurrences(of: "</model>", with: "<!-- staged -->\n</model>")
            .write(toFile: older, atomically: true, encoding: .utf8)
        try git(["add", older], in: folder)
        try original.replacingOccurrences(of: "</model>", with: "<!-- working -->\n</model>")
            .write(toFile: older, atomically: true, encoding: .utf8)
        return (folder, notes, grown)
    }

    @Test func answersWhatGitAnswersPerVersion() throws {
        let (folder, notes, grown) = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for (bundle, versions) in [(notes, ["Notes", "Notes 2"]), (grown, ["Grown", "Grown 2"])] {
            let current = versions[1]
            let reads = ShippedVersionReads()
            reads.start(bundle: bundle, versionNames: versions, current: current)
            let started = try #require(try ShippedVersions.base(ofBundle: bundle, at: .head, reads: reads))
            let alone = try #require(try ShippedVersions.base(ofBundle: bundle, at: .head))
            for version in versions {
                let file = bundle + "/" + version + ".xcdatamodel/contents"
                let expectedRead = alone.read(of: file, versionName: version)
                let answeredRead = started.read(of: file, versionName: version)
                #expect(answeredRead.failure == nil && expectedRead.failure == nil, "\(version)")
                let expected = expectedRead.contents, answered = answeredRead.contents
                #expect(answered.map(\.bytes) == expected.map(\.bytes), "\(version)")
                #expect(answered.map(\.stagedBytes) == expected.map(\.stagedBytes), "\(version)")
                #expect(answered.map(\.equalsWorkingTree) == expected.map(\.equalsWorkingTree), "\(version)")
                #expect(answered.map(\.name) == expected.map(\.name), "\(version)")
            }
            // What the test is about: Notes' older version is committed, staged and edited; the
            // version added since has no base; the current ones were not read in advance.
            if bundle == notes {
                let older = started.read(of: notes + "/Notes.xcdatamodel/contents", versionName: "Notes").contents
                #expect(older.map(\.name) == ["HEAD", "HEAD (in the index)"])
            } else {
                #expect(started.read(of: grown + "/Grown 2.xcdatamodel/contents", versionName: "Grown 2").contents.isEmpty)
            }
            #expect(reads.answer(forVersion: current, inBundle: bundle) == nil)
        }
    }

    @Test func outsideGitNothingIsShipped() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-nogit-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let bundle = folder + "/Notes.xcdatamodeld"
        try FileManager.default.copyItem(atPath: Fixtures.models + "/Notes.xcdatamodeld", toPath: bundle)
        let reads = ShippedVersionReads()
        reads.start(bundle: bundle, versionNames: ["Notes", "Notes 2"], current: "Notes 2")
        let base = try #require(try ShippedVersions.base(ofBundle: bundle, at: .head, reads: reads))
        let read = base.read(of: bundle + "/Notes.xcdatamodel/contents", versionName: "Notes")
        #expect(read.contents.isEmpty && read.failure == nil)
        // Outside any repository there is nothing to say: no reason, so no note.
        guard case .gitFailed(nil)? = reads.answer(forVersion: "Notes", inBundle: bundle) else {
            Issue.record("a read outside git should say git failed, without a reason")
            return
        }
    }

    /// `cat-file` answers "missing" both for a version added since `HEAD` and for one whose
    /// object is gone; the one `ls-tree` over a bundle's missing versions tells them apart, in a
    /// read started early as in one asked for later.
    @Test func aVersionAddedSinceIsToldFromOneWhoseObjectIsGone() throws {
        let (folder, _, grown) = try Self.repository()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try FileManager.default.copyItem(atPath: grown + "/Grown 2.xcdatamodel", toPath: grown + "/Grown 3.xcdatamodel")
        let lookup = Process()
        lookup.executableURL = URL(fileURLWithPath: "/usr/bin/git")
        lookup.arguments = ["-C", folder, "rev-parse", "HEAD:Grown.xcdatamodeld/Grown.xcdatamodel/contents"]
        let output = Pipe()
        lookup.standardOutput = output
        try lookup.run()
        let blob = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        lookup.waitUntilExit()
        try #require(lookup.terminationStatus == 0 && blob.count == 40)
        try FileManager.default.removeItem(atPath: folder + "/.git/objects/\(blob.prefix(2))/\(blob.dropFirst(2))")
        let reads = ShippedVersionReads()
        reads.start(bundle: grown, versionNames: ["Grown", "Grown 2", "Grown 3"], current: "Grown 3")
        let started = try #require(try ShippedVersions.base(ofBundle: grown, at: .head, reads: reads))
        let alone = try #require(try ShippedVersions.base(ofBundle: grown, at: .head))
        for base in [started, alone] {
            let gone = base.read(of: grown + "/Grown.xcdatamodel/contents", versionName: "Grown")
            #expect(gone.contents.isEmpty)
            #expect(gone.failure == "HEAD lists '\(grown)/Grown.xcdatamodel/contents' but git does not have its object (a damaged or partial clone)")
            let added = base.read(of: grown + "/Grown 2.xcdatamodel/contents", versionName: "Grown 2")
            #expect(added.contents.isEmpty && added.failure == nil)
        }
        guard case .objectMissing? = reads.answer(forVersion: "Grown", inBundle: grown),
              case .blobs(committed: nil, staged: nil)? = reads.answer(forVersion: "Grown 2", inBundle: grown) else {
            Issue.record("the started read should tell the gone object from the version added since")
            return
        }
    }
}

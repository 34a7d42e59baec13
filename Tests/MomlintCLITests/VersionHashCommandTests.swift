import Foundation
import Testing

/// The version hashes as the commands show them: `versions` (digests, identical versions,
/// `--format corestore`, `--lock`), `print --hashes`, and `shipped_version_modified` deciding by
/// hashes against a lock file.
@Suite struct VersionHashCommandTests {
    @Test func versionsSaysWhichVersionsAreIdenticalToCoreData() throws {
        let folder = try MigrationCommandTests.temporaryFolder(copying: "AddOptionalAttribute")
        defer { try? FileManager.default.removeItem(at: folder) }
        let bundle = folder.appendingPathComponent("Model.xcdatamodeld")
        // A third version that differs from 'Model' only in what no hash holds: a class name
        // and a default value.
        let text = try String(contentsOf: bundle.appendingPathComponent("Model.xcdatamodel/contents"), encoding: .utf8)
        try FileManager.default.createDirectory(at: bundle.appendingPathComponent("Model 1.xcdatamodel"), withIntermediateDirectories: true)
        try text.replacingOccurrences(of: "representedClassName=\"Note\"", with: "representedClassName=\"NoteMO\"")
            .replacingOccurrences(of: "attributeType=\"String\"", with: "attributeType=\"String\" defaultValueString=\"x\"")
            .write(to: bundle.appendingPathComponent("Model 1.xcdatamodel/contents"), atomically: true, encoding: .utf8)
        let table = try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--order", "Model,Model 1,Model 2"], in: folder)
        #expect(table.status == 0, "\(table.standardError)")
        #expect(table.standardOutput.contains("  version  digest    migrating to the current version\n"))
        #expect(table.standardOutput.contains("identical to Core Data: 'Model', 'Model 1' (equal digests"), "\(table.standardOutput)")
        let json = try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--order", "Model,Model 1,Model 2",
                                           "--format", "json"], in: folder)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        let versions = try #require(document["versions"] as? [[String: Any]])
        #expect(versions.map { $0["identicalTo"] as? [String] } == [["Model 1"], ["Model"], nil])
        #expect(versions.allSatisfy { ($0["versionHashesDigest"] as? String)?.count == 88 })
        #expect(versions[0]["versionHashesDigest"] as? String == versions[1]["versionHashesDigest"] as? String)
    }

    @Test func coreStoreLiteralIsFourLittleEndianWordsPerEntity() throws {
        let folder = try MigrationCommandTests.temporaryFolder(copying: "AddOptionalAttribute")
        defer { try? FileManager.default.removeItem(at: folder) }
        let literal = try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--format", "corestore"], in: folder)
        #expect(literal.status == 0, "\(literal.standardError)")
        let lines = literal.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first == "// Model")
        #expect(lines.contains("// Model 2"))
        #expect(lines.contains("versionLock: ["))
        let entries = lines.filter { $0.hasPrefix("    \"Note\": [0x") }
        #expect(entries.count == 2)
        // Each word is the little-endian reading of 8 bytes of the hash `export` writes.
        let export = try MomlintProcess.run(["export", "Model.xcdatamodeld", "--format", "json"], in: folder)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(export.standardOutput.utf8)) as? [String: Any])
        let entity = try #require((document["entities"] as? [[String: Any]])?.first)
        let base64 = try #require(entity["versionHash"] as? String)
        let bytes = try #require(Data(base64Encoded: base64))
        let words = stride(from: 0, to: 32, by: 8).map { offset in
            bytes[offset..<offset + 8].reversed().reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        }
        let expected = "    \"Note\": [" + words.map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "],"
        #expect(entries.last == expected)
    }

    @Test func printHashesEndsEachLineWithItsHash() throws {
        let printed = try MomlintProcess.run(["print", "--hashes", "Fixtures/Models/Migrations/AddOptionalAttribute/Model.xcdatamodeld"])
        #expect(printed.status == 0, "\(printed.standardError)")
        let lines = printed.standardOutput.split(separator: "\n")
        #expect(lines.first?.hasPrefix("model digest=") == true)
        #expect(lines.dropFirst().allSatisfy { $0.contains(" hash=") && $0.count > 50 }, "\(printed.standardOutput)")
        let plain = try MomlintProcess.run(["print", "Fixtures/Models/Migrations/AddOptionalAttribute/Model.xcdatamodeld"])
        #expect(!plain.standardOutput.contains("hash="))
    }

    /// The lock records Core Data's hashes; an edit that changes none of them is no finding,
    /// one that does names the entity. A lock written before the hashes (contents only) is read.
    @Test func theLockHoldsHashesAndOldLocksAreStillRead() throws {
        let folder = try MigrationCommandTests.temporaryFolder(copying: "AddOptionalAttribute")
        defer { try? FileManager.default.removeItem(at: folder) }
        #expect(try MomlintProcess.run(["versions", "Model.xcdatamodeld", "--lock"], in: folder).status == 0)
        let lockURL = folder.appendingPathComponent("Model.xcdatamodeld.momlint-lock.json")
        let lock = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: lockURL)) as? [String: Any])
        #expect(lock["schemaVersion"] as? Int == 2)
        let locked = try #require(lock["versions"] as? [[String: Any]])
        #expect(locked.allSatisfy { ($0["versionHashes"] as? [String: String])?["Note"]?.count == 44 })

        let old = folder.appendingPathComponent("Model.xcdatamodeld/Model.xcdatamodel/contents")
        let text = try String(contentsOf: old, encoding: .utf8)
        // Hash-neutral: a class name and a default value.
        try text.replacingOccurrences(of: "representedClassName=\"Note\"", with: "representedClassName=\"NoteMO\"")
            .replacingOccurrences(of: "attributeType=\"String\"", with: "attributeType=\"String\" defaultValueString=\"x\"")
            .write(to: old, atomically: true, encoding: .utf8)
        let neutral = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder)
        #expect(neutral.status == 0, "\(neutral.standardOutput)")
        #expect(!neutral.standardOutput.contains("shipped_version_modified"))

        // A lock that keeps only the hashes still decides, and names the entity.
        var hashesOnly = lock
        hashesOnly["versions"] = locked.map { version in version.filter { $0.key != "contents" } }
        try JSONSerialization.data(withJSONObject: hashesOnly).write(to: lockURL)
        try text.replacingOccurrences(of: "</entity>", with: "    <attribute name=\"added\" optional=\"YES\" attributeType=\"String\"/>\n    </entity>")
            .write(to: old, atomically: true, encoding: .utf8)
        let edited = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder)
        #expect(edited.status == 1)
        #expect(edited.standardOutput.contains("entity 'Note' no longer hashes as shipped (hash "), "\(edited.standardOutput)")

        // A schemaVersion 1 lock (contents only, as momlint wrote before the hashes).
        let version1: [String: Any] = ["schemaVersion": 1, "bundle": "Model.xcdatamodeld",
                                       "versions": locked.map { ["name": $0["name"]!, "contents": $0["contents"]!] }]
        try JSONSerialization.data(withJSONObject: version1).write(to: lockURL)
        let againstOld = try MomlintProcess.run(["lint", "Model.xcdatamodeld"], in: folder)
        #expect(againstOld.status == 1)
        #expect(againstOld.standardOutput.contains(
            "entity 'Note' no longer hashes as shipped (attribute 'Note.added' added)"), "\(againstOld.standardOutput)")
    }
}

import Foundation
import Testing

/// `momlint export` end to end: the built binary, its output and its exit code.
@Suite struct ExportCommandTests {
    @Test func writesTheCommittedExportOfTheFixture() throws {
        let output = try MomlintProcess.run(["export", "Fixtures/Models/Everything.xcdatamodel", "--format", "json"])
        #expect(output.status == 0, "\(output.standardError)")
        let expected = try String(contentsOf: MomlintProcess.packageRoot.appendingPathComponent("Fixtures/Exports/Everything.json"),
                                  encoding: .utf8)
        #expect(output.standardOutput == expected)
        #expect(output.standardError.isEmpty)
    }

    @Test func compactIsOneLineOfTheSameDocument() throws {
        let output = try MomlintProcess.run(["export", "Fixtures/Models/Everything.xcdatamodel", "--compact"])
        #expect(output.status == 0)
        #expect(output.standardOutput.split(separator: "\n").count == 1)
        let compact = try JSONSerialization.jsonObject(with: Data(output.standardOutput.utf8)) as? NSDictionary
        let pretty = try JSONSerialization.jsonObject(with: Data(contentsOf: MomlintProcess.packageRoot
            .appendingPathComponent("Fixtures/Exports/Everything.json"))) as? NSDictionary
        #expect(compact != nil && compact == pretty)
    }

    @Test func aBundleExportsItsCurrentVersion() throws {
        let output = try MomlintProcess.run(["export", "Fixtures/Models/Notes.xcdatamodeld"])
        #expect(output.status == 0)
        #expect(output.standardOutput.contains(#""version" : "Notes 2""#))
        #expect(output.standardOutput.contains(#""schemaVersion" : 1"#))
    }

    @Test func unloadableModelExitsTwoWithOneLine() throws {
        let output = try MomlintProcess.run(["export", "Fixtures/Models/BadInput/Malformed.xcdatamodel"])
        #expect(output.status == 2)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == "Fixtures/Models/BadInput/Malformed.xcdatamodel/contents:5:14: error: malformed XML: "
            + "Opening and ending tag mismatch: attribute line 4 and entity\n")
    }

    @Test func aFolderToSearchIsRefused() throws {
        let output = try MomlintProcess.run(["export", "Fixtures/Models"])
        #expect(output.status == 2)
        #expect(output.standardError.hasPrefix("Fixtures/Models: error: export writes one model"))
    }

    @Test func modelsTheExportCannotExpressExitTwoWithEveryPlace() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-export-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let contents = folder.appendingPathComponent("Bad.xcdatamodel/contents")
        try FileManager.default.createDirectory(at: contents.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("""
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="A">
                    <attribute name="n" attributeType="Integer 16" defaultValueString="many"/>
                    <relationship name="b" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Missing"/>
                </entity>
            </model>
            """.utf8).write(to: contents)
        let output = try MomlintProcess.run(["export", contents.path])
        #expect(output.status == 2)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == """
            \(contents.path):4:9: warning: 'A.n' has default value 'many', which is not a valid Integer 16 value; the export leaves it out
            \(contents.path):5:9: error: 'A.b' points to 'Missing', which the model does not have

            """)
    }
}

import Foundation
import Testing

/// Standard output and standard error on one pipe (pre-commit, CI logs, Xcode build phases):
/// every line arrives whole and the totals come last, however large the report.
@Suite(.enabled(if: Workspace.momlintIsBuilt, "momlint is not built next to the tests"))
struct MergedOutputCommandTests {
    /// A model of `count` entities, each with a relationship that has no inverse: one
    /// `missing_inverse` finding per entity, about 150 bytes of report each.
    private func writeLargeModel(in workspace: Workspace, entities count: Int) throws {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            + "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n"
        for index in 0..<count {
            xml += "    <entity name=\"Entity\(index)\" representedClassName=\"Entity\(index)\" syncable=\"YES\">\n"
                + "        <relationship name=\"testConcreteToOneRelationship\" optional=\"YES\" maxCount=\"1\" "
                + "deletionRule=\"Nullify\" destinationEntity=\"Entity\((index + 1) % count)\"/>\n"
                + "    </entity>\n"
        }
        try workspace.write("Large.xcdatamodel/contents", xml + "</model>\n")
        // A broken model too, so standard error has lines before the report as well as after it.
        try workspace.write("Broken.xcdatamodel/contents", "<model><entity name=\"A\">\n")
    }

    @Test func findingsAndTotalsNeverInterleaveOnOnePipe() throws {
        let workspace = try Workspace()
        try writeLargeModel(in: workspace, entities: 1500)
        let result = try MomlintProcess.runMerged(["lint", "Large.xcdatamodel", "Broken.xcdatamodel"],
                                                  in: URL(fileURLWithPath: workspace.path))
        #expect(result.status == 2)
        #expect(result.output.utf8.count > 128 * 1024, "the report must be larger than a pipe's buffer")
        #expect(result.output.hasSuffix("\n"))
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        let findings = lines.filter { $0.contains("(missing_inverse)") }
        #expect(findings.count == 1500)
        // Each finding line is whole: it starts with its file and ends with its rule id.
        for line in lines where line.contains("Large.xcdatamodel") {
            #expect(line.hasPrefix("Large.xcdatamodel/contents:") && line.hasSuffix("(missing_inverse)"),
                    "a finding line was cut: \(line.prefix(200))")
        }
        #expect(lines.last?.hasPrefix("Linted 1 model: 0 errors, 1500 warnings") == true,
                "the totals must be the last line, got: \(lines.last ?? "")")
        #expect(lines.filter { $0.hasPrefix("Linted ") }.count == 1)
        #expect(lines.first?.hasPrefix("Broken.xcdatamodel/contents") == true)
    }

    @Test func reportersEndingWithTheirOwnTotalsStayWholeToo() throws {
        let workspace = try Workspace()
        try writeLargeModel(in: workspace, entities: 1500)
        let result = try MomlintProcess.runMerged(["lint", "Large.xcdatamodel", "Broken.xcdatamodel", "--reporter", "github"],
                                                  in: URL(fileURLWithPath: workspace.path))
        let lines = result.output.split(separator: "\n")
        #expect(lines.allSatisfy { $0.hasPrefix("::") || $0.hasPrefix("momlint: ") || $0.hasPrefix("Broken.xcdatamodel") })
        #expect(lines.last?.hasPrefix("momlint: Linted 1 model") == true)
    }
}

import Foundation
import Linting
import SourceConsistency
import Testing

/// `momlint rules`, run as users run it: the built binary, its stdout, stderr and exit code.
@Suite("momlint rules")
struct RulesCommandTests {
    static func momlint(_ arguments: String...) throws -> MomlintProcess.Output {
        try MomlintProcess.run(arguments)
    }

    static var allDescriptions: [RuleDescription] {
        RuleCatalogue.all.map { $0.description } + SourceRuleCatalogue.all.map { $0.description }
    }

    @Test func listsEveryRuleWithSeverityAndCategory() throws {
        let output = try Self.momlint("rules")
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n")
        #expect(lines.count == Self.allDescriptions.count + 1)
        #expect(lines.first?.hasPrefix("id ") == true)
        for description in Self.allDescriptions {
            let line = lines.first { $0.hasPrefix(description.id + " ") }
            #expect(line?.contains(" \(description.defaultSeverity.rawValue) ") == true, "\(description.id)")
            #expect(line?.contains(description.category.rawValue) == true, "\(description.id)")
            #expect(line?.hasSuffix(description.summary) == true, "\(description.id)")
        }
    }

    @Test func printsOneRulesDocumentation() throws {
        let output = try Self.momlint("rules", "cascade_into_deny")
        #expect(output.status == 0)
        let description = try #require(RuleCatalogue.rule(id: "cascade_into_deny")?.description)
        #expect(output.standardOutput == RuleDocumentation.terminalText(for: description))
        #expect(output.standardOutput.contains("How to fix:"))
    }

    @Test func unknownRuleIsAnInputError() throws {
        let output = try Self.momlint("rules", "no_such_rule")
        #expect(output.status == 2)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == "momlint: no rule with id 'no_such_rule'; run 'momlint rules' for the list\n")
    }

    @Test func mistypedRuleIDSuggestsTheNearestOne() throws {
        let output = try Self.momlint("rules", "missing_invers")
        #expect(output.status == 2)
        #expect(output.standardError
            == "momlint: no rule with id 'missing_invers'; did you mean 'missing_inverse'? Run 'momlint rules' for the list\n")
    }

    @Test func mistypedSubcommandSuggestsTheNearestOne() throws {
        let output = try Self.momlint("lnt")
        #expect(output.status == 2)
        #expect(output.standardOutput.isEmpty)
        #expect(output.standardError == "momlint: 'lnt' is neither a subcommand nor an existing path; did you mean 'momlint lint'?\n")
        // A path that exists is linted, as the default subcommand always did, even when its name is near one.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-subcommand-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("lnt"), withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let linted = try MomlintProcess.run(["lnt"], in: folder)
        #expect(!linted.standardError.contains("did you mean"))
    }

    @Test func printsASourceRulesDocumentation() throws {
        let output = try Self.momlint("rules", "unsigned_managed_property")
        #expect(output.status == 0)
        #expect(output.standardOutput.hasPrefix("unsigned_managed_property (error, "))
        #expect(output.standardOutput.hasSuffix("Examples: Rules/unsigned_managed_property.md\n"))
    }

    /// What CI would do: regenerate into a scratch folder and compare with the committed `Rules/`.
    /// Every rule, model or source, has a page; every page belongs to a rule; generated pages and
    /// the index are exactly what the generator writes.
    @Test func committedRulesFolderIsUpToDate() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = try Self.momlint("rules", "--generate-docs", scratch.path)
        #expect(output.status == 0)
        let ids = Self.allDescriptions.map(\.id)
        #expect(Set(ids).count == ids.count, "a model rule and a source rule share an id")
        let committedFolder = MomlintProcess.packageRoot.appendingPathComponent("Rules")
        let committed = Set(try FileManager.default.contentsOfDirectory(atPath: committedFolder.path).filter { $0.hasSuffix(".md") })
        let generated = Set(try FileManager.default.contentsOfDirectory(atPath: scratch.path))
        let expectedPages = Set(Self.allDescriptions.map { "\($0.id).md" } + ["README.md"])
        #expect(committed.subtracting(expectedPages).isEmpty, "pages without a rule: \(committed.subtracting(expectedPages).sorted())")
        #expect(expectedPages.subtracting(committed).isEmpty, "rules without a page: \(expectedPages.subtracting(committed).sorted())")
        #expect(generated.isSubset(of: expectedPages))
        for name in generated.sorted() {
            let fresh = try String(contentsOf: scratch.appendingPathComponent(name), encoding: .utf8)
            let onDisk = try? String(contentsOf: committedFolder.appendingPathComponent(name), encoding: .utf8)
            #expect(onDisk == fresh, "Rules/\(name) is stale; run `swift run momlint rules --generate-docs Rules`")
        }
        let index = try String(contentsOf: scratch.appendingPathComponent("README.md"), encoding: .utf8)
        for description in Self.allDescriptions {
            #expect(index.contains("](\(description.id).md)"), "the index does not link \(description.id)")
        }
    }

    @Test func idAndGenerateDocsTogetherAreRejected() throws {
        let output = try Self.momlint("rules", "missing_inverse", "--generate-docs", "/tmp/unused")
        #expect(output.status == 2)
        #expect(output.standardError == "momlint: give either a rule id or --generate-docs, not both\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/unused/missing_inverse.md"))
    }
}

import Foundation
import Linting
import Testing

/// Each model rule's page in `Rules/` is generated from its description; this fails when one is
/// missing or stale. Regenerate with `momlint rules --generate-docs Rules`. (`Rules/` also holds the
/// hand-written source-rule pages and the index of both; `MomlintCLITests` checks the folder as a
/// whole, since only the command line sees both catalogues.)
@Suite("Rule documentation")
struct RuleDocumentationTests {
    /// The repository's `Rules/` folder, found from this file's path.
    static let rulesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules")

    @Test("the committed page is the generated one", arguments: RuleCatalogue.all.map { $0.description.id })
    func committedPageMatchesTheGeneratedOne(id: String) throws {
        let description = try #require(RuleCatalogue.rule(id: id)?.description)
        let url = Self.rulesDirectory.appendingPathComponent(RuleDocumentation.fileName(for: description))
        let onDisk = try? String(contentsOf: url, encoding: .utf8)
        #expect(onDisk != nil, "Rules/\(id).md is missing; run `momlint rules --generate-docs Rules`")
        #expect(onDisk == RuleDocumentation.page(for: description),
                "Rules/\(id).md differs from the generated text; run `momlint rules --generate-docs Rules`")
    }

    @Test func everyPageShowsItsExamples() {
        for rule in RuleCatalogue.all {
            let description = rule.description
            let page = RuleDocumentation.page(for: description)
            #expect(page.contains("## Triggering examples") && page.contains("## Non-triggering examples"), "\(description.id)")
            for example in description.triggeringExamples + description.nonTriggeringExamples {
                #expect(page.contains(example.markedText), "\(description.id)")
            }
            for source in description.sources { #expect(page.contains(source)) }
        }
    }

    @Test func indexLinksEveryRule() {
        let index = RuleDocumentation.index()
        for rule in RuleCatalogue.all {
            #expect(index.contains("](\(rule.description.id).md)"), "\(rule.description.id)")
        }
    }
}

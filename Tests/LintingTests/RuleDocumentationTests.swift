import Foundation
import Linting
import Testing

/// `Rules/` is generated from the rule descriptions; these tests fail when it is stale, when a
/// rule has no page, or when a page has no rule. Regenerate with `momlint rules --generate-docs Rules`.
@Suite("Rule documentation")
struct RuleDocumentationTests {
    /// The repository's `Rules/` folder, found from this file's path.
    static let rulesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Rules")

    @Test func committedDocsMatchTheGeneratedOnes() throws {
        let generated = RuleDocumentation.files()
        let committed = try FileManager.default.contentsOfDirectory(atPath: Self.rulesDirectory.path)
            .filter { $0.hasSuffix(".md") }
        for name in committed where generated[name] == nil {
            Issue.record("Rules/\(name) documents no rule; delete it or regenerate")
        }
        for (name, text) in generated.sorted(by: { $0.key < $1.key }) {
            let url = Self.rulesDirectory.appendingPathComponent(name)
            guard let onDisk = try? String(contentsOf: url, encoding: .utf8) else {
                Issue.record("Rules/\(name) is missing; run `momlint rules --generate-docs Rules`")
                continue
            }
            #expect(onDisk == text, "Rules/\(name) differs from the generated text; run `momlint rules --generate-docs Rules`")
        }
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

import Conformance
import Foundation
import ReferenceStore
import Testing

/// The oracle passes every scenario — and this is the one-line integration a Swift store
/// implementer copies into their own test target (README, "Conformance").
@Test(arguments: try ConformanceSuite.scenarios())
func referenceStoreConforms(_ scenario: Scenario) async throws {
    try await ConformanceSuite.check(scenario, adapter: ReferenceStore.init)
}

@Suite struct ShippedSuiteTests {
    @Test func theSuiteCoversEveryAreaOfTheIssue() throws {
        let scenarios = try Fixtures.allScenarios()
        #expect(scenarios.count >= 60)
        let areas = Set(scenarios.map(\.area))
        #expect(areas.isSuperset(of: ["nullify", "cascade", "deny", "no-action", "validation", "constraints", "inheritance"]))
        // Every merge policy is exercised against a saved object and between new objects.
        let policies = scenarios.flatMap { $0.steps }.compactMap { step -> MergePolicy? in
            if case .save(let policy, _) = step.action { return policy }
            return nil
        }
        #expect(Set(policies) == Set(MergePolicy.allCases))
    }

    @Test func everyScenarioCitesASourceAndInferredOnesSayWhy() throws {
        for scenario in try Fixtures.allScenarios() {
            #expect(!scenario.references.isEmpty, "\(scenario.id) cites nothing")
            if scenario.isInferred {
                #expect(!scenario.openQuestions.isEmpty || scenario.notes != nil,
                        "\(scenario.id) is inferred but names no open question and gives no note")
            }
        }
    }

    /// A scenario's sources and notes cite what an outside implementer can open: Apple's pages and
    /// headers, `docs/coredata-semantics.md` sections that exist (and the contract's), and the
    /// public observations that page itself cites. "Reference §3" once pointed at a file outside
    /// the repository, and "§1's own example" at an example §1 did not give.
    @Test func everyCitationInSourcesAndNotesPointsAtSomethingThatExists() throws {
        let semantics = try Self.document("docs/coredata-semantics.md")
        let contract = try Self.document("docs/adapter-contract.md")
        let headers = try Self.headersCited(in: semantics)
        #expect(headers.contains("CoreDataErrors.h"))
        for scenario in try Fixtures.allScenarios() {
            for reference in scenario.references {
                let cited = reference.contains("https://developer.apple.com/")
                    || reference.wholeMatch(of: /docs\/coredata-semantics\.md §\d+/) != nil
                    || reference.matches(of: /\b\w+\.h\b/).contains { headers.contains(String($0.output)) }
                    || Self.urls(in: reference).contains { semantics.contains($0) }
                #expect(cited, """
                    \(scenario.id) cites '\(reference)', which is neither Apple's documentation or headers, \
                    a section of docs/coredata-semantics.md, nor a source that page cites
                    """)
            }
            for text in scenario.references + [scenario.notes ?? ""] {
                for url in Self.urls(in: text) {
                    #expect(url.hasPrefix("https://developer.apple.com/") || semantics.contains(url),
                            "\(scenario.id) cites \(url), which docs/coredata-semantics.md does not")
                }
                #expect(!text.contains("coredata-behaviour") && !text.contains("shared/reference")
                    && text.firstMatch(of: /(?i)reference §/) == nil, "\(scenario.id) cites a page outside the repository: \(text)")
                for problem in Self.unresolvedSections(in: text, semantics: semantics, contract: contract) {
                    #expect(Bool(false), "\(scenario.id): \(problem)")
                }
            }
        }
    }

    @Test func aSectionIsResolvedAgainstTheDocumentNamedBeforeIt() throws {
        let semantics = "## 1. Delete rules\n## 3. Uniqueness constraints\n"
        let contract = "## 4. Semantics\n### 4.1 Changes\n"
        #expect(Self.unresolvedSections(in: "coredata-semantics §1 and §3; contract §4.1", semantics: semantics,
                                        contract: contract).isEmpty)
        #expect(Self.unresolvedSections(in: "Reference §3 database-level table", semantics: semantics, contract: contract)
            == ["'§3' follows no document name (docs/coredata-semantics.md or the contract)"])
        #expect(Self.unresolvedSections(in: "docs/coredata-semantics.md §9", semantics: semantics, contract: contract)
            == ["docs/coredata-semantics.md has no section 9"])
        #expect(Self.unresolvedSections(in: "contract §4.2", semantics: semantics, contract: contract)
            == ["docs/adapter-contract.md has no section 4.2"])
    }

    static func document(_ path: String) throws -> String {
        try String(contentsOf: Fixtures.packageRoot.appendingPathComponent(path), encoding: .utf8)
    }

    /// The SDK headers `docs/coredata-semantics.md` lists as `[Headers]`.
    static func headersCited(in semantics: String) throws -> Set<String> {
        let row = try #require(semantics.split(separator: "\n").first { $0.hasPrefix("| `[Headers]` |") })
        return Set(row.matches(of: /`(\w+\.h)`/).map { String($0.output.1) })
    }

    static func urls(in text: String) -> [String] {
        text.matches(of: /https?:\/\/[^\s)>,]+/).map { String($0.output) }
    }

    /// Section numbers a document's headings give: `## 3. Title` → 3, `### 4.1 Title` → 4.1.
    static func sections(of document: String) -> Set<String> {
        Set(document.matches(of: #/(?m)^#{2,3} (\d+(?:\.\d+)?)\.? /#).map { String($0.output.1) })
    }

    /// Each `§N` of `text` checked against the document named last before it.
    static func unresolvedSections(in text: String, semantics: String, contract: String) -> [String] {
        var problems: [String] = []
        for citation in text.matches(of: /§(\d+(?:\.\d+)?)/) {
            let before = text[..<citation.range.lowerBound]
            let semanticsName = before.ranges(of: "coredata-semantics").last?.lowerBound
            let contractName = before.ranges(of: /(?i)contract/).last?.lowerBound
            let section = String(citation.output.1)
            switch (semanticsName, contractName) {
            case (nil, nil):
                problems.append("'§\(section)' follows no document name (docs/coredata-semantics.md or the contract)")
            case (let semanticsAt?, let contractAt) where contractAt.map({ semanticsAt > $0 }) ?? true:
                if !sections(of: semantics).contains(section) {
                    problems.append("docs/coredata-semantics.md has no section \(section)")
                }
            default:
                if !sections(of: contract).contains(section) {
                    problems.append("docs/adapter-contract.md has no section \(section)")
                }
            }
        }
        return problems
    }

    @Test func scenarioIDsMatchTheirFolders() throws {
        for scenario in try Fixtures.allScenarios() {
            let folder = (scenario.file as NSString).deletingLastPathComponent
            #expect((folder as NSString).lastPathComponent == scenario.area, "\(scenario.id) lives in \(folder)")
        }
    }
}

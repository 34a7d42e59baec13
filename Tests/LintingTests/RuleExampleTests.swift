import DataModel
import Linting
import Testing

/// One test runs every example of every rule, as SwiftLint does: the documentation's examples
/// are the rules' tests.
@Suite("Rule examples")
struct RuleExampleTests {
    static let ruleIDs = RuleCatalogue.all.map { $0.description.id }

    @Test("triggering examples report exactly at the markers", arguments: ruleIDs)
    func triggeringExamples(id: String) throws {
        let rule = try #require(RuleCatalogue.rule(id: id))
        let examples = rule.description.triggeringExamples
        #expect(!examples.isEmpty, "'\(id)' has no triggering example")
        // Swift examples of the SwiftData rules run in SwiftDataVersionExampleTests.
        for example in examples where example.document != .swiftDataVersions {
            let variants: [ExampleHarness.Variant] = example.document != .currentVersionFile
                ? ExampleHarness.Variant.allCases : [.asWritten]
            for variant in variants {
                let outcome = try ExampleHarness.run(example, rule: rule, variant: variant)
                #expect(!outcome.expected.isEmpty, "a triggering example of '\(id)' has no ↓ marker",
                        sourceLocation: location(of: example))
                #expect(outcome.found.sorted() == outcome.expected,
                        "'\(id)' \(variant): expected findings at \(outcome.expected), found \(outcome.found.sorted()): \(outcome.messages)",
                        sourceLocation: location(of: example))
            }
        }
    }

    @Test("non-triggering examples report nothing", arguments: ruleIDs)
    func nonTriggeringExamples(id: String) throws {
        let rule = try #require(RuleCatalogue.rule(id: id))
        let examples = rule.description.nonTriggeringExamples
        #expect(!examples.isEmpty, "'\(id)' has no non-triggering example")
        for example in examples {
            #expect(!example.markedText.contains(RuleExample.marker), "a non-triggering example of '\(id)' has a marker",
                    sourceLocation: location(of: example))
            // Swift examples of the SwiftData rules run in SwiftDataVersionExampleTests.
            if example.document == .swiftDataVersions { continue }
            let variants: [ExampleHarness.Variant] = example.document != .currentVersionFile
                ? ExampleHarness.Variant.allCases : [.asWritten]
            for variant in variants {
                let outcome = try ExampleHarness.run(example, rule: rule, variant: variant)
                #expect(outcome.found.isEmpty, "'\(id)' \(variant) fired: \(outcome.messages)",
                        sourceLocation: location(of: example))
            }
        }
    }

    private func location(of example: RuleExample) -> Testing.SourceLocation {
        Testing.SourceLocation(fileID: example.fileID, filePath: example.filePath, line: example.line, column: 1)
    }
}

@Suite("Example harness")
struct ExampleHarnessTests {
    @Test func markersGivePositionsOfTheFollowingCharacter() {
        let (text, markers) = ExampleHarness.extractMarkers(from: "<a>\n  ↓<b/>↓<c/>\n</a>")
        #expect(text == "<a>\n  <b/><c/>\n</a>")
        #expect(markers == [Position(line: 2, column: 3), Position(line: 2, column: 7)])
    }

    @Test func topLevelElementsKeepChildrenAndMarkers() {
        let snippet = """
            ↓<entity name="A">
                <attribute name="x" attributeType="String"/>
            </entity>
            <entity name="B"/>
            <configuration name="C" usedWithCloudKit="YES">
                <memberEntity name="A"/>
            </configuration>
            """
        let elements = ExampleHarness.topLevelElements(of: snippet)
        #expect(elements.count == 3)
        #expect(elements[0].hasPrefix("↓<entity name=\"A\">"))
        #expect(elements[2].hasSuffix("</configuration>"))
    }
}

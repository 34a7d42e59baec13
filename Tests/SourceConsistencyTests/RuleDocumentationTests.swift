import Foundation
import Linting
import SourceConsistency
import Testing

/// `Rules/<id>.md`, found from this file so the tests run from any directory.
func ruleDocumentation(id: String) throws -> String {
    let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    return try String(contentsOf: packageRoot.appendingPathComponent("Rules/\(id).md"), encoding: .utf8)
}

/// The (model, Swift) pairs of fenced `xml` and `swift` blocks in the section under `heading`.
func documentedExamples(in document: String, under heading: String) throws -> [(model: String, source: String)] {
    let sections = document.components(separatedBy: "\n## ")
    let section = try #require(sections.first { $0.hasPrefix(heading + "\n") }, "no '## \(heading)' section")
    let blocks = section.components(separatedBy: "```").enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
    var pairs: [(model: String, source: String)] = []
    var pendingModel: String?
    for block in blocks {
        let (language, body) = (block.prefix { $0 != "\n" }, block.drop { $0 != "\n" }.dropFirst().dropLast())
        switch language {
        case "xml": pendingModel = String(body)
        case "swift":
            let model = try #require(pendingModel, "a swift block without its xml block in '\(heading)'")
            pairs.append((model, String(body)))
            pendingModel = nil
        default: Issue.record("unexpected block '\(language)' in '\(heading)'")
        }
    }
    return pairs
}

@Suite("Source rule documentation")
struct RuleDocumentationTests {
    static let ids = SourceRuleCatalogue.all.map { $0.description.id }

    @Test("Rules/<id>.md states the rule's name, id, severity and summary", arguments: ids)
    func headerMatchesDescription(_ id: String) throws {
        let rule = try #require(SourceRuleCatalogue.rule(id: id))
        let description = rule.description
        let lines = try ruleDocumentation(id: id).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.first == "# \(description.name)"[...])
        #expect(lines.dropFirst(2).first?.hasPrefix("`\(id)` · default severity **\(description.defaultSeverity.rawValue)** · "
            + description.category.rawValue) == true)
        #expect(lines.dropFirst(4).first == description.summary[...])
        #expect(lines.dropFirst(6).first == "**SwiftData** (`momlint lint --swiftdata`): \(description.swiftData.text)"[...])
    }

    @Test("Rules/<id>.md says why the default severity is what it is", arguments: ids)
    func pageStatesTheSeverityRationale(_ id: String) throws {
        let rule = try #require(SourceRuleCatalogue.rule(id: id))
        let document = try ruleDocumentation(id: id)
        let why = try #require(document.components(separatedBy: "\n## ").first { $0.hasPrefix("Why\n") })
        #expect(why.contains("Default severity: \(rule.description.defaultSeverity.rawValue)"), "\(id)")
    }

    @Test("the documented examples are the rule's examples, and they behave as documented", arguments: ids)
    func documentedExamplesMatchAndRun(_ id: String) throws {
        let rule = try #require(SourceRuleCatalogue.rule(id: id))
        let document = try ruleDocumentation(id: id)
        let sections = [
            ("Triggering examples", rule.triggeringExamples, true),
            ("Non-triggering examples", rule.nonTriggeringExamples, false),
        ]
        for (heading, described, triggers) in sections {
            let documented = try documentedExamples(in: document, under: heading)
            #expect(documented.map(\.model) == described.map(\.model), "\(id): \(heading)")
            #expect(documented.map(\.source) == described.map(\.source), "\(id): \(heading)")
            for (model, source) in documented {
                let example = SourceRuleExample(model: model, source: source)
                let found = try violations(of: rule, model: model, source: example.sourceWithoutMarkers)
                let expected = Set(example.markedPositions.map { Position(line: $0.line, column: $0.column) })
                #expect(triggers != expected.isEmpty, "\(id): \(heading)")
                #expect(Set(found.map { Position(line: $0.location.line, column: $0.location.column) }) == expected,
                        "\(id): \(heading): \(found.map(\.message))")
            }
        }
    }
}

import DataModel
import Foundation
import Linting
import SourceConsistency
import SwiftDataModel
import Testing

/// The Swift examples of the SwiftData migration rules (`RuleExample.Document.swiftDataVersions`)
/// are their tests, as the XML examples are for the other rules (`RuleExampleTests`): each
/// example is read as one Swift file of a folder, its versions compiled and hashed, and the rule
/// must report exactly where the `↓` markers stand (the line and column of the Swift token), and
/// nothing in a non-triggering example.
@Suite struct SwiftDataVersionExampleTests {
    static let ruleIDs = RuleCatalogue.all.filter { rule in
        (rule.description.triggeringExamples + rule.description.nonTriggeringExamples).contains { $0.document == .swiftDataVersions }
    }.map { $0.description.id }

    static let file = "Sources/App/Versions.swift"

    /// The example's versions (with its base, when it has one) and the positions of its markers.
    static func versions(of example: RuleExample) throws -> (versions: SwiftDataVersions, markers: [String]) {
        var markers: [String] = []
        var text = ""
        var line = 1, column = 1
        for character in example.markedText {
            if character == RuleExample.marker {
                markers.append("\(line):\(column)")
                continue
            }
            text.append(character)
            if character == "\n" { line += 1; column = 1 } else { column += character.utf8.count }
        }
        let reader = SwiftDataVersionsReader()
        let read = reader.read(files: [SwiftSourceFile(path: file, text: text)], folder: "Sources/App")
        #expect(read.problems.isEmpty, "\(read.problems)")
        #expect(read.notes.isEmpty, "\(read.notes)")
        var versions = try #require(read.versions)
        if let baseText = example.olderAtBaseText {
            let base = try #require(reader.read(files: [SwiftSourceFile(path: file, text: baseText)], folder: "Sources/App").versions)
            versions.base = SwiftDataVersions.Base(
                name: "HEAD", models: Dictionary(base.versions.map { ($0.name, $0.model) }, uniquingKeysWith: { a, _ in a }))
        }
        return (versions, markers)
    }

    static func findings(of example: RuleExample, rule: any Rule.Type) throws -> (found: [String], expected: [String], messages: [String]) {
        let (versions, markers) = try versions(of: example)
        let findings = LintEngine(rules: [rule]).lintSchemaVersions(versions)
        #expect(findings.allSatisfy { $0.location.file == file }, "\(findings.map(\.location))")
        return (findings.map { "\($0.location.line):\($0.location.column)" }.sorted(), markers.sorted(), findings.map(\.message))
    }

    @Test("triggering Swift examples report exactly at the markers", arguments: ruleIDs)
    func triggeringExamples(id: String) throws {
        let rule = try #require(RuleCatalogue.rule(id: id))
        let examples = rule.description.triggeringExamples.filter { $0.document == .swiftDataVersions }
        #expect(!examples.isEmpty)
        for example in examples {
            let outcome = try Self.findings(of: example, rule: rule)
            #expect(!outcome.expected.isEmpty, "a triggering example of '\(id)' has no ↓ marker")
            #expect(outcome.found == outcome.expected, "'\(id)': expected \(outcome.expected), found \(outcome.found): \(outcome.messages)",
                    sourceLocation: Testing.SourceLocation(fileID: example.fileID, filePath: example.filePath, line: example.line, column: 1))
        }
    }

    @Test("non-triggering Swift examples report nothing", arguments: ruleIDs)
    func nonTriggeringExamples(id: String) throws {
        let rule = try #require(RuleCatalogue.rule(id: id))
        for example in rule.description.nonTriggeringExamples where example.document == .swiftDataVersions {
            let outcome = try Self.findings(of: example, rule: rule)
            #expect(outcome.found.isEmpty, "'\(id)' fired: \(outcome.messages)",
                    sourceLocation: Testing.SourceLocation(fileID: example.fileID, filePath: example.filePath, line: example.line, column: 1))
        }
    }

    /// Every rule over versioned schemas has Swift examples, both kinds (shipped_version_modified
    /// has its XML ones besides).
    @Test func everyVersionsRuleHasSwiftExamplesOfBothKinds() {
        for rule in RuleCatalogue.all where rule.init().asSchemaVersionsRule != nil {
            let description = rule.description
            #expect(description.triggeringExamples.contains { $0.document == .swiftDataVersions }, "\(description.id)")
            #expect(description.nonTriggeringExamples.contains { $0.document == .swiftDataVersions }, "\(description.id)")
        }
    }

    /// The messages speak SwiftData's terms, as the other SwiftData findings do.
    @Test func messagesSpeakSwiftDataTerms() throws {
        for id in Self.ruleIDs {
            let rule = try #require(RuleCatalogue.rule(id: id))
            for example in rule.description.triggeringExamples where example.document == .swiftDataVersions {
                for message in try Self.findings(of: example, rule: rule).messages {
                    for term in ["entity", "entities", "mapping model", "Nullify", "xcdatamodel", "bundle"] {
                        #expect(!message.contains(term), "\(id) says '\(term)': \(message)")
                    }
                }
            }
        }
    }
}

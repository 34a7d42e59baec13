import Foundation
import Linting
import Testing

/// `momlint rules`, run as users run it: the built binary, its stdout, stderr and exit code.
@Suite("momlint rules")
struct RulesCommandTests {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    /// The `momlint` binary SwiftPM built next to the test bundle.
    static let executable = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        .appendingPathComponent("momlint")

    static func momlint(_ arguments: String...) throws -> Output {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
                      standardError: String(decoding: errorData, as: UTF8.self))
    }

    @Test func listsEveryRuleWithSeverityAndCategory() throws {
        let output = try Self.momlint("rules")
        #expect(output.status == 0)
        let lines = output.standardOutput.split(separator: "\n")
        #expect(lines.count == RuleCatalogue.all.count + 1)
        #expect(lines.first?.hasPrefix("id ") == true)
        for rule in RuleCatalogue.all {
            let description = rule.description
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

    @Test func generatesTheDocumentationPages() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-rules-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = try Self.momlint("rules", "--generate-docs", directory.path)
        #expect(output.status == 0)
        let expected = RuleDocumentation.files()
        let written = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(Set(written) == Set(expected.keys))
        for (name, text) in expected {
            #expect(try String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) == text, "\(name)")
        }
    }

    @Test func idAndGenerateDocsTogetherAreRejected() throws {
        let output = try Self.momlint("rules", "missing_inverse", "--generate-docs", "/tmp/unused")
        #expect(output.status == 2)
        #expect(output.standardError == "momlint: give either a rule id or --generate-docs, not both\n")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/unused/missing_inverse.md"))
    }
}

import ArgumentParser
import Configuring
import Foundation
import Linting
import SourceConsistency

/// `momlint rules`: the catalogue, one rule's documentation, or the generated `Rules/` pages.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "List the rules, show one rule's documentation, or generate the Rules/ pages.",
        discussion: """
            Without arguments, prints every rule (model rules, then the source rules of \
            'lint --sources') with its default severity, category and summary. With a rule id, prints \
            that rule's documentation. With --generate-docs DIR, writes DIR/<id>.md for every model \
            rule and DIR/README.md, the index of all rules; the source rules' pages are written by hand \
            and left alone.
            """
    )

    @Argument(help: ArgumentHelp("A rule id, e.g. missing_inverse, to print its documentation.", valueName: "id"))
    var ruleID: String?

    @Option(name: .customLong("generate-docs"),
            help: ArgumentHelp("Write <id>.md for every rule and README.md into this directory.", valueName: "dir"))
    var documentationDirectory: String?

    func run() throws {
        // Checked here rather than in validate(): ArgumentParser exits 64 for validation errors,
        // and momlint documents 2 for a wrong command line.
        if ruleID != nil && documentationDirectory != nil {
            throw ExitCode.inputError(saying: "momlint: give either a rule id or --generate-docs, not both")
        }
        if let directory = documentationDirectory {
            try generateDocumentation(into: directory)
        } else if let ruleID {
            guard let description = Self.allDescriptions.first(where: { $0.id == ruleID }) else {
                let nearest = NearestName.closest(to: ruleID, among: Self.allDescriptions.map(\.id))
                let hint = nearest.map { "did you mean '\($0)'? Run" } ?? "run"
                throw ExitCode.inputError(saying: "momlint: no rule with id '\(ruleID)'; \(hint) 'momlint rules' for the list")
            }
            print(RuleDocumentation.terminalText(for: description), terminator: "")
        } else {
            print(Self.table(Self.allDescriptions), terminator: "")
        }
    }

    /// Model rules, then source rules: every id momlint can report.
    static var allDescriptions: [RuleDescription] {
        RuleCatalogue.all.map { $0.description } + sourceRulesSection.rules
    }

    /// The source rules, listed in the index with pages of their own.
    static var sourceRulesSection: RuleDocumentation.ExternalSection {
        RuleDocumentation.ExternalSection(
            title: "Model–code consistency (`momlint lint --sources DIR`)",
            introduction: "These rules check hand-written NSManagedObject subclasses against the model; "
                + "their pages are written by hand, with model and Swift examples.",
            rules: SourceRuleCatalogue.all.map { $0.description })
    }

    /// An aligned table: id, severity, category, summary.
    static func table(_ descriptions: [RuleDescription]) -> String {
        let rows = [["id", "severity", "category", "summary"]] + descriptions.map {
            [$0.id, $0.defaultSeverity.rawValue, $0.category.rawValue, $0.summary]
        }
        let widths = (0..<3).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            (0..<3).map { row[$0].padding(toLength: widths[$0], withPad: " ", startingAt: 0) }.joined(separator: "  ")
                + "  " + row[3]
        }.joined(separator: "\n") + "\n"
    }

    private func generateDocumentation(into directory: String) throws {
        let manager = FileManager.default
        do {
            try manager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let files = RuleDocumentation.files(externalSections: [Self.sourceRulesSection])
            for (name, text) in files.sorted(by: { $0.key < $1.key }) {
                try Data(text.utf8).write(to: URL(fileURLWithPath: directory).appendingPathComponent(name))
            }
        } catch {
            throw ExitCode.inputError(saying: "\(directory): cannot write the rule documentation: \(error.localizedDescription)")
        }
        print("Wrote \(RuleCatalogue.all.count) rule pages and README.md to \(directory)")
    }
}

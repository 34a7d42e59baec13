import ArgumentParser
import Configuring
import DataModel
import Foundation
import Linting
import Reporting
import SwiftDataModel

struct GraphCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid
        case dot
    }

    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw a model's entities and relationships, with delete rules and findings, as Mermaid or DOT.",
        discussion: """
            Relationship arrows are labelled with their delete rule; elements with findings are red \
            (errors) or orange (warnings). Mermaid renders in GitHub Markdown; render DOT with \
            'dot -Tsvg'. The configuration (.momlint.yml or --config) decides which rules run.
            """
    )

    @Argument(help: ArgumentHelp("The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder, "
                                 + "a contents file, or a folder holding exactly one model.", valueName: "path"))
    var path: String

    @Flag(help: "Read the path as Swift sources (a folder or .swift file) whose SwiftData @Model classes form the model.")
    var swiftdata = false

    @Option(help: "The diagram language: \(Format.allCases.map(\.rawValue).joined(separator: " or ")).")
    var format: Format = .mermaid

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "A configuration file to use instead of the nearest .momlint.yml; repeat to merge several.", valueName: "file"))
    var configurationFiles: [String] = []

    func run() throws {
        var standardError = StandardError()
        let engine: LintEngine
        do {
            let loaded = try ConfigurationFile.load(explicitFiles: configurationFiles,
                                                    otherRuleIDs: LintCommand.sourceRules.map(\.id))
            for warning in loaded.warnings { print(warning, to: &standardError) }
            engine = try loaded.configuration.engine()
        } catch {
            print(LintCommand.diagnosticLine(for: error), to: &standardError)
            throw ExitCode.inputError
        }
        var run = LintRun(paths: swiftdata ? [] : [path], engine: engine)
        if swiftdata {
            let read = SwiftDataReader().read(paths: [path])
            run.reports = read.models.map { LintRun.ModelReport(model: $0, findings: engine.lint($0)) }
            run.loadFailures = read.problems.map(\.loadError)
        }
        for failure in run.loadFailures { print(failure, to: &standardError) }
        guard run.loadFailures.isEmpty else { throw ExitCode.inputError }
        guard run.reports.count == 1, let report = run.reports.first else {
            let files = run.reports.map { "'\($0.model.file)'" }.joined(separator: ", ")
            print("\(path): error: a graph draws one model, and this path holds \(run.reports.count): \(files); "
                  + "pass one of them", to: &standardError)
            throw ExitCode.inputError
        }
        let graph = EntityGraph(model: report.model, findings: report.findings)
        switch format {
        case .mermaid: print(MermaidGraph.render(graph), terminator: "")
        case .dot: print(DOTGraph.render(graph), terminator: "")
        }
    }
}

import ArgumentParser
import Configuring
import DataModel
import Foundation
import LintDriver
import Linting
import Reporting
import SafeFiles
#if !MOMLINT_HOOK_BUILD
import SwiftDataModel
#endif

struct GraphCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case mermaid
        case dot
    }

    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw a model's entities and relationships, with delete rules and findings, as Mermaid or DOT.",
        discussion: """
            Mermaid writes an entity-relationship diagram (erDiagram, rendered by GitHub Markdown): \
            one line per relationship pair with cardinality marks, delete rules in the labels, and \
            findings named in attribute comments and labels. DOT draws arrows labelled with their \
            delete rule and colours findings red (errors) or orange (warnings); render it with \
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
        let configuration: LintConfiguration
        do {
            let loaded = try ConfigurationFile.load(explicitFiles: configurationFiles,
                                                    otherRuleIDs: LintRequest.sourceRules.map(\.id))
            for warning in loaded.warnings { print(warning, to: &standardError) }
            configuration = loaded.configuration
            engine = try configuration.engine()
        } catch {
            throw ExitCode.inputError(saying: LintRequest.diagnosticLine(for: error))
        }
        var run = LintRun(paths: swiftdata ? [] : [path], engine: engine)
        if swiftdata {
            #if MOMLINT_HOOK_BUILD
            throw ExitCode.inputError(saying: "\(path): error: " + Self.noSwiftDataInHookBuild)
            #else
            // The same model `lint --swiftdata` checks: `swiftdata_cloudkit: true` turns CloudKit on.
            let read = SwiftDataReader(usesCloudKit: configuration.swiftDataCloudKit ?? false).read(paths: [path])
            for note in read.notes { print(note, to: &standardError) }
            run.reports = read.models.map { LintRun.ModelReport(model: $0, findings: engine.lint($0)) }
            run.loadFailures = read.problems.map(\.loadError)
            #endif
        }
        for failure in run.loadFailures { print(failure, to: &standardError) }
        guard run.loadFailures.isEmpty else { throw ExitCode.inputError }
        guard run.reports.count == 1, let report = run.reports.first else {
            let files = run.reports.map { "'\($0.model.file)'" }.joined(separator: ", ")
            throw ExitCode.inputError(saying: "\(path): error: a graph draws one model, and this path holds "
                + "\(run.reports.count): \(files); pass one of them")
        }
        let graph = EntityGraph(model: report.model, findings: report.findings)
        let drawing = switch format {
        case .mermaid: MermaidGraph.render(graph)
        case .dot: DOTGraph.render(graph)
        }
        // Unbuffered and checked: a full disk or a closed pipe is exit 2, not a lost graph.
        guard writeToStandardOutput(drawing) else { throw ExitCode.inputError }
    }

    /// What `--swiftdata` says in the pre-commit hook's build, which has no Swift parser.
    static let noSwiftDataInHookBuild = "this momlint was built for the pre-commit hook, without swift-syntax, "
        + "and cannot read SwiftData models; use a full build of momlint (e.g. in CI)"
}

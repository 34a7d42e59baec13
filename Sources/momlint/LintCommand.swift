import ArgumentParser
import DataModel
import Foundation
import Linting
import SourceConsistency

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint .xcdatamodeld bundles, .xcdatamodel folders, contents files, or folders holding them."
    )

    @Argument(help: ArgumentHelp(
        "Models to lint: .xcdatamodeld bundles, .xcdatamodel folders, contents files, or folders to search.",
        valueName: "path"))
    var paths: [String] = ["."]

    @Flag(help: "Lint every version in a bundle, not only the current one.")
    var allVersions = false

    @Option(name: .customLong("sources"), help: ArgumentHelp(
        "A folder (searched recursively) or .swift file whose NSManagedObject subclasses are checked against the models; repeatable.",
        valueName: "dir"))
    var sourceDirectories: [String] = []

    func run() throws {
        var run = LintRun(paths: paths, loader: ModelLoader(loadsAllVersions: allVersions))
        run.checkSources(in: sourceDirectories)
        var standardError = StandardError()
        for note in run.notes { print(note, to: &standardError) }
        for failure in run.loadFailures { print(failure, to: &standardError) }
        for finding in run.findings {
            print("\(finding.location): \(finding.severity.rawValue): \(finding.message) (\(finding.ruleID))")
        }
        print(summary(of: run), to: &standardError)
        if !run.loadFailures.isEmpty { throw ExitCode.inputError }
        if run.count(of: .error) > 0 { throw ExitCode.findings }
    }

    private func summary(of run: LintRun) -> String {
        let models = run.reports.count
        let errors = run.count(of: .error)
        let warnings = run.count(of: .warning)
        var line = "Linted \(models) model\(models == 1 ? "" : "s"): "
            + "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        if !run.loadFailures.isEmpty {
            line += "; \(run.loadFailures.count) input\(run.loadFailures.count == 1 ? "" : "s") could not be loaded"
        }
        return line + "."
    }
}

/// Lets `print(_:to:)` write to standard error, where diagnostics about inputs belong.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}

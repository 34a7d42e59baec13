import ArgumentParser
import Conformance
import CoreDataStoreAdapter
import DataModel
import Foundation
import ProcessAdapter
import ReferenceStore
import SafeFiles
#if !MOMLINT_HOOK_BUILD
import SQLiteStore
#endif

/// `momlint conformance`: run the behavioural scenarios against store adapters.
struct ConformanceCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Run the behavioural conformance scenarios against a Core Data–compatible store.",
        discussion: """
            Exit codes: 0 every scenario passed, failed only where the expected-failures list says so, \
            or was skipped; 1 an unexpected failure or an unexpected pass (or --check-report found the \
            report stale); 2 a scenario file, the expected-failures file or the command line was wrong.
            """
    )

    /// The adapters `--adapter` can name. Others add their entry here.
    static let registry: StoreAdapterRegistry = {
        var registry = StoreAdapterRegistry([
            .init(name: "reference", summary: "the in-memory oracle store") { _ in ReferenceStoreAdapter() },
            .init(name: "exec:", summary: "a store in any language: a shim COMMAND, run by /bin/sh, speaking "
                + "the JSON-lines protocol of docs/implementers.md") { try ProcessStoreAdapter.connect(command: $0) },
        ])
        // The pre-commit hook's build leaves GRDB, and so the SQLite store, out (Package.swift).
        #if !MOMLINT_HOOK_BUILD
        registry.register(.init(name: "sqlite", summary: "the SQLite store, a temporary database file per scenario") { _ in
            SQLiteStoreAdapter()
        })
        registry.register(.init(name: "sqlite-reopen", summary: "the SQLite store, closed and reopened after every save") { _ in
            SQLiteStoreAdapter(reopensAfterEachSave: true)
        })
        #endif
        #if canImport(CoreData)
        registry.register(.init(name: "coredata", summary: "Apple's Core Data over a temporary SQLite file (macOS; unverified)") {
            _ in CoreDataStoreAdapter()
        })
        #endif
        return registry
    }()

    @Option(name: .customLong("adapter"), help: ArgumentHelp(
        "A store adapter to run; repeat for several. Default: reference. \(registry.helpText)", valueName: "name"))
    var adapterNames: [String] = []

    @Option(name: .customLong("filter"), help: ArgumentHelp(
        "Run only scenarios whose id matches this glob (e.g. 'deny.*'); repeat for several.", valueName: "glob"))
    var filters: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "Leave out scenarios whose id matches this glob (e.g. 'contexts.*'), after --filter; repeat for several.",
        valueName: "glob"))
    var exclusions: [String] = []

    @Option(help: ArgumentHelp("Output format: text, junit or json.", valueName: "format"))
    var reporter = "text"

    @Option(name: .customLong("expected-failures"), help: ArgumentHelp(
        "A file of scenario ids (or globs) the adapter knowingly fails, one per line. "
            + "Prefix with 'ADAPTER=' to apply it to one adapter only; repeat for several.",
        valueName: "file"))
    var expectedFailureFiles: [String] = []

    @Option(name: .customLong("scenarios"), help: ArgumentHelp(
        "The scenario directory. Default: Fixtures/Scenarios in the current directory, else the one momlint was built from.",
        valueName: "dir"))
    var scenarioDirectory: String?

    @Option(name: .customLong("allow-models-under"), help: ArgumentHelp(
        "A folder outside the scenario folder whose models scenarios may name (repeatable); "
            + "by default a scenario's model must be inside the scenario folder.", valueName: "folder"))
    var allowedModelRoots: [String] = []

    @Option(name: .customLong("time-limit"), help: ArgumentHelp(
        "Seconds one scenario may take before it fails.", valueName: "seconds"))
    var timeLimit: Double = ConformanceCommandLine.defaultTimeLimit

    @Option(name: .customLong("write-report"), help: ArgumentHelp(
        "Write the scenario × adapter matrix (reports/conformance.md) to this file.", valueName: "file"))
    var reportPath: String?

    @Option(name: .customLong("check-report"), help: ArgumentHelp(
        "Fail (exit 1) when this committed matrix differs from a fresh one; CI runs it.", valueName: "file"))
    var checkedReportPath: String?

    func run() async throws {
        var standardError = StandardError()
        // Checked here rather than in validate(), whose errors exit 64; momlint documents 2.
        guard let reporterType = ResultReporters.named(reporter) else {
            throw ExitCode.inputError(saying: "error: unknown reporter '\(reporter)'; use one of: "
                + ResultReporters.all.map { $0.name }.joined(separator: ", "))
        }
        // At most a day: the limit becomes whole milliseconds, and a value past Int's range
        // (about 9.2e15 s) trapped there.
        guard timeLimit > 0 && timeLimit <= 86_400 else {
            throw ExitCode.inputError(saying: "error: --time-limit must be a positive number of seconds, at most 86400 (a day)")
        }
        // Every process a shim started ends with the run, however it ends: even under a thread
        // the runner abandoned at its time limit, or one that left its process group (adopted
        // here on Linux when its parent exits), or when momlint is interrupted or terminated.
        if adapterNames.contains(where: { $0.hasPrefix("exec:") }) {
            ProcessStoreAdapter.adoptOrphanedDescendants()
            ProcessStoreAdapter.stopEveryShimWhenSignalled()
        }
        defer { ProcessStoreAdapter.stopEveryShim() }
        let adapters: [any StoreAdapter]
        let requestedAdapters = adapterNames.isEmpty ? ["reference"] : adapterNames
        do {
            adapters = try requestedAdapters.map(Self.registry.adapter(named:))
        } catch {
            throw ExitCode.inputError(saying: "error: \(error)")
        }

        let directory = scenarioDirectory ?? Self.defaultScenarioDirectory()
        let suite = ScenarioLoader(allowedModelRoots: allowedModelRoots).loadSuite(in: directory)
        for error in suite.errors { print(error, to: &standardError) }
        let selection = ScenarioSelection(suite.scenarios, filters: filters, exclusions: exclusions)
        if selection.matchesNoFilter && suite.errors.isEmpty {
            throw ExitCode.inputError(saying: "error: no scenario in \(directory) matches "
                + filters.map { "'\($0)'" }.joined(separator: ", "))
        }
        for exclusion in selection.unmatchedExclusions {
            print("note: --exclude '\(exclusion)' matches no scenario", to: &standardError)
        }
        let scenarios = selection.scenarios

        let expectations = ExpectedFailures.ByAdapter(
            files: expectedFailureFiles, adapters: zip(requestedAdapters, adapters).map { ($0, $1.name) },
            scenarioIDs: suite.scenarios.map(\.id))
        for note in expectations.notes { print(note, to: &standardError) }
        if let failure = expectations.failure { throw ExitCode.inputError(saying: failure) }

        let runner = ConformanceRunner(timeLimit: .milliseconds(Int(timeLimit * 1000)))
        var summaries: [RunSummary] = []
        for adapter in adapters {
            // One line per scenario on stderr as it ends: a run against a shim that answers
            // nothing once printed nothing for ten minutes.
            let results = await runner.run(scenarios, adapter: adapter) { position, count, result in
                let verdict = switch result.verdict {
                case .pass: "pass"
                case .fail: "FAIL"
                case .skip: "skip"
                }
                var progressLine = StandardError()
                print("[\(position)/\(count)] \(PrintableText.bounded(adapter.name)) \(PrintableText.bounded(result.scenarioID)): \(verdict) "
                    + "(\(String(format: "%.2f", result.seconds)) s)", to: &progressLine)
            }
            summaries.append(RunSummary(adapterName: adapter.name, results: results,
                                        expectedFailures: expectations.lists[adapter.name] ?? .none))
        }

        let reportWritten = writeToStandardOutput(reporterType.report(summaries))

        // The command that regenerates the report: every option that shapes the matrix.
        let commandLine = ConformanceCommandLine(
            adapters: requestedAdapters, scenarioDirectory: scenarioDirectory, allowedModelRoots: allowedModelRoots,
            expectedFailureFiles: expectedFailureFiles, filters: filters, exclusions: exclusions, timeLimit: timeLimit)
        let regenerate = commandLine.writingReport(to:)
        let matrix = ConformanceMatrix(
            scenarios: scenarios, summaries: summaries,
            command: regenerate(reportPath ?? checkedReportPath ?? "reports/conformance.md"),
            scenarioDirectory: directory).markdown()
        if let reportPath {
            do {
                try OutputFileWriter.write(Array(matrix.utf8), toPath: reportPath)
            } catch {
                throw ExitCode.inputError(saying: "\(reportPath): error: cannot write the report: \(error.reason)")
            }
        }
        var reportIsStale = false
        if let checkedReportPath {
            let committed = (try? RegularFileReader.bytes(atPath: checkedReportPath, limit: 16 << 20))
                .flatMap { String(bytes: $0, encoding: .utf8) }
            if committed != matrix {
                reportIsStale = true
                // The command last on the line, quoted only as a shell needs: ready to copy.
                print("\(checkedReportPath): error: the conformance report is stale; regenerate it and commit it: "
                    + regenerate(checkedReportPath), to: &standardError)
            }
        }

        if !suite.errors.isEmpty || !reportWritten { throw ExitCode.inputError }
        if reportIsStale || summaries.contains(where: { !$0.isSuccessful }) { throw ExitCode.findings }
    }

    static func defaultScenarioDirectory() -> String {
        let local = FileManager.default.currentDirectoryPath + "/Fixtures/Scenarios"
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: local, isDirectory: &isDirectory), isDirectory.boolValue {
            return "Fixtures/Scenarios"
        }
        return ConformanceSuite.defaultScenarioDirectory
    }
}

import ArgumentParser
import Configuring
import DataModel
import Foundation
import Linting
import ModelDiff
import Reporting
import SafeFiles
import SourceConsistency
#if !MOMLINT_HOOK_BUILD
import SwiftDataModel
#endif

struct LintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "lint",
        abstract: "Lint .xcdatamodeld bundles, .xcdatamodel folders, contents files, or folders holding them; "
            + "with --swiftdata, SwiftData @Model classes.",
        discussion: """
            Configuration comes from the nearest .momlint.yml in the working directory or above it, \
            or from --config. Reporters: \(ReporterCatalogue.all.map { "\($0.name) (\($0.summary))" }.joined(separator: "; ")).
            """
    )

    @Argument(help: ArgumentHelp(
        "Models to lint: .xcdatamodeld bundles, .xcdatamodel folders, contents files, or folders to search. "
            + "Default: 'included' from the configuration, else the working directory.",
        valueName: "path"))
    var paths: [String] = []

    @Flag(help: "Lint every version in a bundle, not only the current one, and check migrating each older version to the current one (not only the previous).")
    var allVersions = false

    @Option(help: ArgumentHelp(
        "The git revision shipped versions are compared with (shipped_version_modified), e.g. a pull request's target branch; 'none' to skip. Default: HEAD, or the bundle's versions lock file.",
        valueName: "rev"))
    var since: String?

    @Option(name: .customLong("sources"), help: ArgumentHelp(
        "A folder (searched recursively) or .swift file whose NSManagedObject subclasses are checked against the models; repeatable, and added to the configuration's `sources`.",
        valueName: "dir"))
    var sourceDirectories: [String] = []

    @Option(name: .customLong("swiftdata"), help: ArgumentHelp(
        "A folder (searched recursively) or .swift file whose SwiftData @Model classes are linted as one model; "
            + "Core Data models in the folder are linted too. Repeatable, and added to the configuration's `swiftdata`.",
        valueName: "dir"))
    var swiftDataDirectories: [String] = []

    @Option(name: .customLong("reporter"), help: ArgumentHelp(
        "A report format, to standard output (NAME) or to a file (NAME:FILE); repeat for several. "
            + "Formats: \(ReporterCatalogue.names.joined(separator: ", ")). Default: xcode.",
        valueName: "name[:file]"))
    var reporters: [String] = []

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "A configuration file to use instead of the nearest .momlint.yml; repeat to merge several, later ones winning.",
        valueName: "file"))
    var configurationFiles: [String] = []

    @Option(help: ArgumentHelp("Report only findings not recorded in this baseline file.", valueName: "file"))
    var baseline: String?

    @Option(help: ArgumentHelp("Record the current findings in this baseline file.", valueName: "file"))
    var writeBaseline: String?

    @Flag(help: "Fail (exit 1) on warnings too, not only on errors.")
    var strict = false

    @Flag(help: "Report errors only, and print no notes or summary line.")
    var quiet = false

    @OptionGroup(title: "Input limits")
    var limitOptions: LoadLimitOptions

    func run() throws {
        var standardError = StandardError()
        let writer: ReportWriter
        let loaded: ConfigurationFile.Loaded
        let engine: LintEngine
        let baselineFile: Baseline?
        let versionBase: VersionBase
        do {
            writer = try ReportWriter(checking: try reporters.map(ReporterDestination.init(parsing:)))
            loaded = try ConfigurationFile.load(explicitFiles: configurationFiles, otherRuleIDs: Self.sourceRules.map(\.id))
            engine = try loaded.configuration.engine()
            baselineFile = try baseline.map(Baseline.read(from:))
            versionBase = try Self.versionBase(since: since, configured: loaded.configuration.migration.since)
        } catch {
            print(Self.diagnosticLine(for: error), to: &standardError)
            throw ExitCode.inputError
        }
        let configuration = loaded.configuration
        if !quiet { for warning in loaded.warnings { print(warning, to: &standardError) } }

        let loader = ModelLoader(limits: limitOptions.limits, loadsAllVersions: allVersions, replacesOldVersionsWithCurrent: true)
        let swiftDataPaths = configuration.swiftDataPaths(arguments: swiftDataDirectories)
        // With only SwiftData folders named, the Core Data models linted are those in them.
        let modelPaths = paths.isEmpty && configuration.included == nil && !swiftDataPaths.isEmpty
            ? [] : configuration.paths(arguments: paths)
        var run = LintRun(paths: modelPaths, loader: loader, engine: engine)
        #if MOMLINT_HOOK_BUILD
        // The pre-commit hook's build has no Swift parser (Package.swift); say so rather than
        // pass in silence, and leave source and SwiftData checks to a full build (CI).
        let sourcePaths: [String] = []
        if !(configuration.sourcePaths(arguments: sourceDirectories).isEmpty && swiftDataPaths.isEmpty) && !quiet {
            print("note: Swift sources and SwiftData models are not checked by the pre-commit hook's momlint, which is "
                  + "built without swift-syntax; run a full build of momlint (e.g. in CI) for `sources` and `swiftdata`",
                  to: &standardError)
        }
        #else
        let sourcePaths = configuration.sourcePaths(arguments: sourceDirectories)
        run.checkSources(in: sourcePaths)
        // After `--sources`: hand-written NSManagedObject subclasses are checked against model
        // files, and a SwiftData class is its own model (a folder's .xcdatamodeld bundles that
        // only --swiftdata names are not checked against --sources).
        run.lintSwiftData(in: swiftDataPaths, engine: engine, loader: loader,
                          usesCloudKit: configuration.swiftDataCloudKit ?? false)
        #endif
        run.checkMigrations(loader: loader, engine: engine, options: MigrationCheckOptions(
            allOlderVersions: allVersions || configuration.migration.allVersions == true,
            base: versionBase,
            versionOrder: configuration.migration.versionOrder,
            // The folders linted: with only SwiftData folders named, not the working directory.
            mappingSearchPaths: modelPaths + swiftDataPaths.filter { !modelPaths.contains($0) }))
        run = configuration.applied(to: configuration.excluding(from: run))
        let suppressionWarnings = LintConfiguration.unknownSuppressedRules(in: run, otherRuleIDs: Self.sourceRules.map(\.id))
        var inputFailed = !run.loadFailures.isEmpty
        if let writeBaseline {
            let recorded = Baseline(recording: run.findings, folder: Self.folder(of: writeBaseline))
            do {
                try recorded.write(to: writeBaseline)
            } catch {
                print(error, to: &standardError)
                inputFailed = true
            }
        }
        var baselined = 0
        if let baselineFile, let baseline {
            (run, baselined) = run.applying(baselineFile, folder: Self.folder(of: baseline))
        }
        let failsOnWarnings = strict || configuration.strict == true
        let hasFailingFinding = run.count(of: .error) > 0 || (failsOnWarnings && run.count(of: .warning) > 0)
        let warningCount = run.count(of: .warning)
        if quiet { run = run.keepingFindings { $1.severity == .error } }

        if !quiet {
            for warning in suppressionWarnings { print(warning, to: &standardError) }
            for note in run.notes { print(note, to: &standardError) }
        }
        for failure in run.loadFailures { print(failure, to: &standardError) }
        var context = ReportContext(engine: engine, toolVersion: Momlint.version)
        if !sourcePaths.isEmpty {
            context.rules += Self.sourceRules.filter { configuration.admits(ruleID: $0.id) }
                .map { ReportContext.RuleInfo(description: $0, severity: configuration.severity(of: $0)) }
        }
        do {
            if !writeToStandardOutput(try writer.write(run, context: context)) { inputFailed = true }
        } catch {
            print(error, to: &standardError)
            inputFailed = true
        }
        if !quiet && !writer.printsTotals {
            // The terminal always learns the totals: on stdout when no report went there.
            let summary = RunSummary.line(for: run, baselined: baselined)
            if writer.writesToStandardOutput {
                print(summary, to: &standardError)
            } else if !writeToStandardOutput(summary + "\n") {
                inputFailed = true
            }
        }
        // The process ends here, and the kernel reclaims its memory at once; freeing a large
        // model object by object first would cost more than a tenth of the lint (measured on
        // 10,000 entities). So the run outlives the command, as compilers do with their ASTs.
        if quiet && hasFailingFinding && run.count(of: .error) == 0 {
            // --quiet hid the warnings that --strict fails on; an exit 1 with no output would be a riddle.
            print("momlint: exit 1 because strict mode fails on \(warningCount) warning\(warningCount == 1 ? "" : "s"), "
                  + "which --quiet does not show", to: &standardError)
        }
        _ = Unmanaged.passRetained(KeptUntilExit(run))
        if inputFailed { throw ExitCode.inputError }
        if hasFailingFinding { throw ExitCode.findings }
    }

    /// Holds a value that is deliberately never freed (see the end of `run()`).
    private final class KeptUntilExit {
        let value: Any
        init(_ value: Any) { self.value = value }
    }

    /// The rules `--sources` runs besides the engine's: configurable by id like any rule.
    static var sourceRules: [RuleDescription] { SourceRuleCatalogue.all.map { $0.description } }

    /// The base `--since` names, else the configuration's `migration.since`, else `HEAD`.
    static func versionBase(since: String?, configured: String?) throws(ValidationError) -> VersionBase {
        guard let argument = since ?? configured else { return .head }
        do {
            return try VersionBase(argument: argument)
        } catch {
            throw ValidationError("\(since == nil ? "migration.since" : "--since"): \(error)")
        }
    }

    /// Errors that name their file already read `file:line:column: error: …`; others get the prefix.
    static func diagnosticLine(for error: any Error) -> String {
        switch error {
        case let error as ConfigurationDiagnostic: error.description
        case let error as BaselineError: error.description
        default: "error: \(error)"
        }
    }

    private static func folder(of file: String) -> String {
        (FilePaths.absolute(file) as NSString).deletingLastPathComponent
    }
}

/// Writes `text` to standard output unbuffered, so that a failed write (a full disk, a closed
/// pipe) is seen: it is reported on standard error and the caller exits 2, where `print` would
/// lose the report silently at exit. False when the write failed.
@discardableResult
func writeToStandardOutput(_ text: String) -> Bool {
    guard !text.isEmpty else { return true }
    do {
        try StandardOutput.write(text)
        return true
    } catch {
        var standardError = StandardError()
        print("error: cannot write to standard output: \(error.reason)", to: &standardError)
        return false
    }
}

/// Lets `print(_:to:)` write to standard error, where diagnostics about inputs belong.
/// Unbuffered, like `StandardOutput`, so the two streams reach a shared pipe in program order.
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        try? FileHandle.standardError.write(contentsOf: Data(string.utf8))
    }
}

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

/// What `momlint lint` is asked to do, as plain values, and the doing of it: configuration,
/// loading, linting, baselines and reports, ending in the exit status. `LintCommand` parses a
/// command line into one; a command line of paths alone, what a pre-commit hook runs, becomes
/// one without swift-argument-parser (`Momlint.lintRequest(for:)`), whose reflection on the
/// command's options is more than a small model's whole lint (docs/benchmarks.md). The defaults
/// here are the options' defaults: `LintRequestTests` holds the two to each other.
public struct LintRequest: Equatable, Sendable {
    public var paths: [String]
    public var allVersions = false
    public var migrationPath: MigrationPath?
    public var since: String?
    public var sourceDirectories: [String] = []
    public var swiftDataDirectories: [String] = []
    public var reporters: [String] = []
    public var configurationFiles: [String] = []
    public var baseline: String?
    public var writeBaseline: String?
    public var strict = false
    public var quiet = false
    public var limits = LoadLimits.standard

    /// The paths, and every option at its default.
    public init(paths: [String]) {
        self.paths = paths
    }

    /// How a run ends: `momlint lint`'s exit status (README.md lists them).
    public enum Outcome: Int32, Sendable {
        /// No error-severity finding (no warning either, with `--strict`).
        case passed = 0
        /// An error-severity finding, or any finding with `--strict`.
        case findings = 1
        /// An input could not be loaded or a report written, or the configuration was invalid.
        case inputError = 2
    }

    /// Lints, reports, and says how the run ended; `toolVersion` goes into the reports.
    public func run(toolVersion: String) -> Outcome {
        var standardError = StandardError()
        let writer: ReportWriter
        let loaded: ConfigurationFile.Loaded
        let engine: LintEngine
        let baselineFile: Baseline?
        let versionBase: VersionBase
        var loader = ModelLoader(limits: limits, loadsAllVersions: allVersions, replacesOldVersionsWithCurrent: true)
        let swiftDataPaths: [String]
        let modelPaths: [String]
        // Git reads each bundle's shipped versions while the models are parsed and linted.
        var shippedVersionReads: ShippedVersionReads?
        do {
            writer = try ReportWriter(checking: try reporters.map(ReporterDestination.init(parsing:)))
            loaded = try ConfigurationFile.load(explicitFiles: configurationFiles, otherRuleIDs: Self.sourceRules.map(\.id))
            versionBase = try Self.versionBase(since: since, configured: loaded.configuration.migration.since)
            swiftDataPaths = loaded.configuration.swiftDataPaths(arguments: swiftDataDirectories)
            // With only SwiftData folders named, the Core Data models linted are those in them.
            modelPaths = paths.isEmpty && loaded.configuration.included == nil && !swiftDataPaths.isEmpty
                ? [] : loaded.configuration.paths(arguments: paths)
            // Git takes longer to start than the rest of a small bundle's lint, so it
            // is started on the bundles the paths name before the engine is built (the engine's
            // first look at every rule) and before the models are loaded; the loader starts it
            // on any other bundle when it finds one. The engine runs the rules the configuration
            // admits, so this is its `LintRun.readsShippedVersions` answer, asked early.
            if versionBase == .head, loaded.configuration.admits(ruleID: ShippedVersionModifiedRule.description.id) {
                let reads = ShippedVersionReads()
                loader.bundleFound = { reads.start(bundle: $0, versionNames: $1, current: $2) }
                loader.announceVersionedBundles(named: modelPaths)
                shippedVersionReads = reads
            }
            engine = try loaded.configuration.engine()
            baselineFile = try baseline.map(Baseline.read(from:))
        } catch {
            print(Self.diagnosticLine(for: error), to: &standardError)
            return .inputError
        }
        let configuration = loaded.configuration
        if !quiet { for warning in loaded.warnings { print(warning, to: &standardError) } }

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
                          usesCloudKit: configuration.swiftDataCloudKit ?? false, versionBase: versionBase)
        #endif
        run.checkMigrations(loader: loader, engine: engine, options: MigrationCheckOptions(
            allOlderVersions: allVersions || configuration.migration.allVersions == true,
            path: migrationPath ?? configuration.migration.path ?? .direct,
            base: versionBase,
            versionOrder: configuration.migration.versionOrder,
            // The folders linted: with only SwiftData folders named, not the working directory.
            mappingSearchPaths: modelPaths + swiftDataPaths.filter { !modelPaths.contains($0) },
            shippedVersionReads: shippedVersionReads))
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
        var context = ReportContext(engine: engine, toolVersion: toolVersion)
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
        // model object by object first would cost more than a tenth of the lint
        // (docs/benchmarks.md, "Exit"). So the run outlives the command, as compilers do with
        // their ASTs.
        if quiet && hasFailingFinding && run.count(of: .error) == 0 {
            // --quiet hid the warnings that --strict fails on; an exit 1 with no output would be a riddle.
            print("momlint: exit 1 because strict mode fails on \(warningCount) warning\(warningCount == 1 ? "" : "s"), "
                  + "which --quiet does not show", to: &standardError)
        }
        _ = Unmanaged.passRetained(KeptUntilExit(run))
        if inputFailed { return .inputError }
        return hasFailingFinding ? .findings : .passed
    }

    /// The rules `--sources` runs besides the engine's: configurable by id like any rule.
    public static var sourceRules: [RuleDescription] { SourceRuleCatalogue.all.map { $0.description } }

    /// The base `--since` names, else the configuration's `migration.since`, else `HEAD`.
    static func versionBase(since: String?, configured: String?) throws(InvalidBase) -> VersionBase {
        guard let argument = since ?? configured else { return .head }
        do {
            return try VersionBase(argument: argument)
        } catch {
            throw InvalidBase(description: "\(since == nil ? "migration.since" : "--since"): \(error)")
        }
    }

    /// A base that `--since` or `migration.since` names wrongly, with which of them named it.
    struct InvalidBase: Error, CustomStringConvertible {
        var description: String
    }

    /// Errors that name their file already read `file:line:column: error: …`; others get the prefix.
    public static func diagnosticLine(for error: any Error) -> String {
        switch error {
        case let error as ConfigurationDiagnostic: error.description
        case let error as BaselineError: error.description
        default: "error: \(error)"
        }
    }

    static func folder(of file: String) -> String {
        (FilePaths.absolute(file) as NSString).deletingLastPathComponent
    }

    /// Holds a value that is deliberately never freed (see the end of `run()`).
    private final class KeptUntilExit {
        let value: Any
        init(_ value: Any) { self.value = value }
    }
}

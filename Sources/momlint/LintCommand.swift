import ArgumentParser
import DataModel
import LintDriver
import ModelDiff
import Reporting

struct LintCommand: ParsableCommand {
    /// The subcommand's name, which `Momlint` also recognises before parsing.
    static let name = "lint"

    static let configuration = CommandConfiguration(
        commandName: name,
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

    @Option(name: .customLong("migration-path"), help: ArgumentHelp(
        "How the app migrates its stores: 'direct' (Core Data migrates each older version straight to the current one) or "
            + "'stepwise' (the app migrates each version to the next). Default: migration.path from the configuration, else direct.",
        valueName: "path"))
    var migrationPath: MigrationPath?

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

    /// What this command line asks for, as plain values.
    var request: LintRequest {
        var request = LintRequest(paths: paths)
        request.allVersions = allVersions
        request.migrationPath = migrationPath
        request.since = since
        request.sourceDirectories = sourceDirectories
        request.swiftDataDirectories = swiftDataDirectories
        request.reporters = reporters
        request.configurationFiles = configurationFiles
        request.baseline = baseline
        request.writeBaseline = writeBaseline
        request.strict = strict
        request.quiet = quiet
        request.limits = limitOptions.limits
        return request
    }

    func run() throws {
        let outcome = request.run(toolVersion: Momlint.version)
        if outcome != .passed { throw ExitCode(outcome.rawValue) }
    }
}

extension MigrationPath: ExpressibleByArgument {}

import ArgumentParser
import DataModel
import Foundation
import ModelDiff
#if !MOMLINT_HOOK_BUILD
import SwiftDataModel
#endif

struct DiffCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "diff",
        abstract: "Compare two versions of a model and classify each change for migration.",
        discussion: """
            momlint diff OLD NEW compares two versions (each an .xcdatamodel folder or a contents file); \
            momlint diff BUNDLE compares an .xcdatamodeld bundle's previous version with its current one, in \
            the order `momlint lint` uses (migration.version_order from the nearest .momlint.yml or --config); \
            momlint diff BUNDLE --migration-path stepwise compares each version with the next, up to the \
            current one, and --migration-path direct each older version with the current one: every \
            migration of that path, oldest first. \
            momlint diff --git REV PATH compares PATH as commit REV holds it with the working tree; \
            momlint diff --swiftdata DIR V1 V2 compares two VersionedSchemas of the Swift sources under DIR, \
            each as the Core Data model it compiles to. Each \
            change says whether it changes a version hash, whether lightweight migration can infer it, and \
            whether it loses data (docs/migrations.md). JSON output: docs/schemas/model-diff.schema.json \
            (with --migration-path, an array of such documents). \
            Exit codes: 0 the diff was made (whatever it found); 2 bad input.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, markdown
    }

    @Argument(help: ArgumentHelp("OLD NEW, one BUNDLE, or with --git one PATH.", valueName: "model"))
    var paths: [String]

    @Option(name: .customLong("git"), help: ArgumentHelp(
        "Compare PATH as this git revision holds it with the working tree.", valueName: "rev"))
    var revision: String?

    @Option(name: .customLong("swiftdata"), help: ArgumentHelp(
        "A folder of Swift sources: compare two of its VersionedSchemas, named as the model arguments.", valueName: "dir"))
    var swiftDataFolder: String?

    @Option(help: "The output format: text, json or markdown.")
    var format: Format = .text

    @Option(name: .customLong("migration-path"), help: ArgumentHelp(
        "With one BUNDLE, every migration of this path, oldest first: 'stepwise', each version to the next up to the "
            + "current one; 'direct', each older version to the current one. Default: the previous version to the current one.",
        valueName: "path"))
    var migrationPath: MigrationPath?

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "A configuration file to use instead of the nearest .momlint.yml (for migration.version_order with one BUNDLE); "
            + "repeat to merge several, later ones winning.", valueName: "file"))
    var configurationFiles: [String] = []

    func run() throws {
        if let swiftDataFolder {
            try runSwiftData(swiftDataFolder)
            return
        }
        do {
            if let migrationPath {
                try printPath(migrationPath)
                return
            }
            let (older, newer) = try versions()
            let diff = Self.diff(older, newer)
            switch format {
            case .text: print(DiffRendering.text(diff), terminator: "")
            case .markdown: print(DiffRendering.markdown(diff), terminator: "")
            case .json: FileHandle.standardOutput.write(try DiffRendering.json(diff, olderFile: older.file, newerFile: newer.file))
            }
        } catch let failure as ModelVersionInputs.Failure {
            throw ExitCode.inputError(saying: failure)
        }
    }

    private static func diff(_ older: Model, _ newer: Model) -> SchemaDiff {
        let mappings = ModelVersionInputs.mappingModels(beside: newer.version.bundlePath ?? ModelPaths.parent(of: newer.file))
        return SchemaDiff(from: older, to: newer,
                          hasMappingModel: mappings.covers(from: older.version.name, to: newer.version.name,
                                                           inBundle: newer.version.bundlePath.map { ($0 as NSString).lastPathComponent }))
    }

    /// Every migration of `path` in one bundle, oldest first. A migration from or to a version
    /// that cannot be read is named on standard error and left out; the others are still shown.
    private func printPath(_ path: MigrationPath) throws {
        guard paths.count == 1, revision == nil else {
            throw ModelVersionInputs.Failure(description: "error: --migration-path takes one BUNDLE")
        }
        var standardError = StandardError()
        let bundle = try ModelVersionInputs.bundle(at: paths[0], configurationFiles: configurationFiles)
        let migrations = bundle.migrations(along: path, mappings: ModelVersionInputs.mappingModels(beside: bundle.bundlePath),
                                           hashes: BundleVersionHashes(bundle))
        for note in migrations.compactMap(DiffRendering.notCompared) { print(note, to: &standardError) }
        switch format {
        case .text: print(DiffRendering.text(migrations), terminator: "")
        case .markdown: print(DiffRendering.markdown(migrations), terminator: "")
        case .json: FileHandle.standardOutput.write(try DiffRendering.json(migrations))
        }
    }

    /// `--swiftdata DIR V1 V2`: the diff comes from `SwiftDataModel`, rendered as any other.
    private func runSwiftData(_ folder: String) throws {
        guard paths.count == 2, revision == nil else {
            throw ExitCode.inputError(saying: "error: --swiftdata DIR takes two VersionedSchema names, V1 V2 (and no --git)")
        }
        #if MOMLINT_HOOK_BUILD
        // Exits 2: the hook's build has no Swift parser.
        _ = try SwiftDataVersionInputs.versions(at: folder)
        #else
        let versions = try SwiftDataVersionInputs.versions(at: folder)
        switch SwiftDataVersionsRendering.diff(in: versions, from: paths[0], to: paths[1]) {
        case .failure(let failure):
            throw ExitCode.inputError(saying: "\(folder): error: \(failure)")
        case .success(let diff):
            switch format {
            case .text: print(DiffRendering.text(diff), terminator: "")
            case .markdown: print(DiffRendering.markdown(diff), terminator: "")
            case .json: FileHandle.standardOutput.write(try DiffRendering.json(diff, olderFile: folder, newerFile: folder))
            }
        }
        #endif
    }

    private func versions() throws(ModelVersionInputs.Failure) -> (Model, Model) {
        if let revision {
            guard paths.count == 1 else {
                throw .init(description: "error: --git takes one PATH (an .xcdatamodel folder, a contents file or a bundle)")
            }
            let newer = try ModelVersionInputs.model(at: paths[0])
            let committed: [UInt8]?
            do {
                committed = try ShippedVersions.committedContents(of: newer.file, at: revision)
            } catch {
                throw .init(description: "\(paths[0]): error: \(error.description)")
            }
            guard let committed else {
                throw .init(description: "\(newer.file): error: '\(revision)' has no such file")
            }
            var version = newer.version
            version.name = version.name.isEmpty ? revision : "\(version.name) @ \(revision)"
            let older = try ModelVersionInputs.model(fromBytes: committed, file: "\(revision):\(newer.file)", version: version)
            return (older, newer)
        }
        switch paths.count {
        case 1:
            let bundle = try ModelVersionInputs.bundle(at: paths[0], configurationFiles: configurationFiles)
            switch bundle.previousVersion {
            case .readable(let previous)?:
                return (previous, bundle.current)
            case .unreadable(let previous)?:
                throw .init(description: "\(previous.error.path): error: the previous version '\(previous.name)' cannot be "
                    + "compared: \(previous.error.problem); name two versions to compare")
            case nil:
                throw .init(description: "\(paths[0]): error: the bundle has no version before its current one "
                    + "('\(bundle.current.version.name)'); name two versions to compare")
            }
        case 2:
            return (try ModelVersionInputs.model(at: paths[0]), try ModelVersionInputs.model(at: paths[1]))
        default:
            throw .init(description: "error: name OLD and NEW, one bundle, or --git REV PATH")
        }
    }
}

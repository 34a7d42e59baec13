import ArgumentParser
import DataModel
import Foundation
import ModelDiff
import VersionHashes
import Linting
#if !MOMLINT_HOOK_BUILD
import SwiftDataModel
#endif

struct VersionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions",
        abstract: "List a bundle's versions in order, the current one, and what each migration of the app's path takes.",
        discussion: """
            Versions are ordered by the natural order of their names (Model, Model 2, … Model 10), by \
            userDefinedModelVersionIdentifier when every version sets a distinct one, by \
            migration.version_order in the nearest .momlint.yml (or --config), or by --order. Core Data \
            migrates a store from whichever version wrote it to the current one, so every other version \
            is compared with it, including one ordered after it (then a note asks whether the current \
            version is the newest). With --migration-path stepwise (or migration.path in the configuration), \
            each version is compared with the next instead, as an app that migrates one version at a time \
            does: a store of an older version reaches the current one when every step after it migrates. \
            A version that cannot be read is listed as unreadable. \
            Each version's digest is Core Data's NSStoreModelVersionHashesDigest (the first characters of its \
            base64): versions with equal digests are one schema to Core Data, and the table says so. \
            With --lock, also writes <bundle>.momlint-lock.json beside the bundle: every version's entity \
            version hashes and digest as shipped (with its contents, to explain changes), which \
            shipped_version_modified compares with when it exists. --format corestore prints each version's \
            CoreStore VersionLock literal instead. \
            With --swiftdata DIR instead of a bundle: the VersionedSchemas of the Swift sources under DIR in \
            the order of their SchemaMigrationPlan's schemas (else by versionIdentifier), each with its \
            identifier, the digest of the Core Data model it compiles to and its models, and each stage of the \
            plan with its verdict; --lock writes DIR.momlint-lock.json with every version's entity hashes. \
            Exit codes: 0 listed; 2 bad input.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json, corestore
    }

    @Argument(help: ArgumentHelp("An .xcdatamodeld bundle.", valueName: "bundle"))
    var path: String?

    @Option(name: .customLong("swiftdata"), help: ArgumentHelp(
        "A folder of Swift sources: list its SwiftData VersionedSchemas and migration stages instead.", valueName: "dir"))
    var swiftDataFolder: String?

    @Option(help: "The output format: table, json, or corestore (each version's CoreStore VersionLock literal).")
    var format: Format = .table

    @Option(help: ArgumentHelp("Version names in order, comma-separated, for bundles whose names do not sort.",
                               valueName: "names"))
    var order: String?

    @Option(name: .customLong("migration-path"), help: ArgumentHelp(
        "The path judged: 'direct' (each older version straight to the current one) or 'stepwise' (each version to "
            + "the next). Default: migration.path from the configuration, else direct.", valueName: "path"))
    var migrationPath: MigrationPath?

    @Flag(help: "Write the versions lock file beside the bundle.")
    var lock = false

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "A configuration file to use instead of the nearest .momlint.yml (for migration.version_order); "
            + "repeat to merge several, later ones winning.", valueName: "file"))
    var configurationFiles: [String] = []

    func run() throws {
        if let swiftDataFolder {
            guard path == nil else {
                throw ExitCode.inputError(saying: "error: give a bundle or --swiftdata DIR, not both")
            }
            try runSwiftData(swiftDataFolder)
            return
        }
        guard let path else {
            throw ExitCode.inputError(saying: "error: name an .xcdatamodeld bundle, or --swiftdata DIR")
        }
        let bundle: BundleVersions
        let judgedPath: MigrationPath
        do {
            let configured = try ModelVersionInputs.configuredMigration(ofBundle: path, configurationFiles: configurationFiles)
            // --order wins over the configuration's order, --migration-path over its path.
            let names = order.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? configured.order
            bundle = try ModelVersionInputs.bundle(at: path, versionOrder: names)
            judgedPath = migrationPath ?? configured.path ?? .direct
        } catch {
            throw ExitCode.inputError(saying: error)
        }
        let report = BundleVersionsReport(bundle, path: judgedPath, mappings: ModelVersionInputs.mappingModels(beside: bundle.bundlePath))
        switch format {
        case .table: print(report.table, terminator: "")
        case .json: FileHandle.standardOutput.write(try report.json())
        case .corestore: print(CoreStoreVersionLock.literals(report.hashes.versions), terminator: "")
        }
        if lock {
            try writeLock(beside: bundle.bundlePath) {
                let versions = try bundle.versions.map { model in
                    VersionsLock.version(model, contents: String(decoding: try ModelVersionInputs.read(model.file), as: UTF8.self))
                }
                return try VersionsLock(bundle: (bundle.bundlePath as NSString).lastPathComponent, versions: versions).encoded()
            }
        }
    }

    /// Writes the lock file `encoded` gives beside `path` (a bundle, or a SwiftData folder), and says so.
    private func writeLock(beside path: String, _ encoded: () throws -> Data) throws {
        let lockPath = ShippedVersions.lockFilePath(forBundle: path)
        do {
            try encoded().write(to: URL(fileURLWithPath: lockPath))
        } catch {
            throw ExitCode.inputError(saying: "\(lockPath): error: \(error)")
        }
        var standardError = StandardError()
        print("wrote \(lockPath)", to: &standardError)
    }

    /// `--swiftdata DIR`: the rendering and the lock come from `SwiftDataModel`.
    private func runSwiftData(_ folder: String) throws {
        #if MOMLINT_HOOK_BUILD
        // Exits 2: the hook's build has no Swift parser.
        _ = try SwiftDataVersionInputs.versions(at: folder)
        #else
        let versions = try SwiftDataVersionInputs.versions(at: folder)
        switch format {
        case .table: print(SwiftDataVersionsRendering.table(versions), terminator: "")
        case .json: FileHandle.standardOutput.write(try SwiftDataVersionsRendering.json(versions))
        case .corestore: print(CoreStoreVersionLock.literals(versions.ordered.map { ($0.name, $0.hashes) }), terminator: "")
        }
        if lock { try writeLock(beside: folder) { try SwiftDataShippedVersions.lock(of: versions).encoded() } }
        #endif
    }
}

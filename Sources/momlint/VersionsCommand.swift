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
        var standardError = StandardError()
        if let swiftDataFolder {
            guard path == nil else {
                print("error: give a bundle or --swiftdata DIR, not both", to: &standardError)
                throw ExitCode.inputError
            }
            try runSwiftData(swiftDataFolder)
            return
        }
        guard let path else {
            print("error: name an .xcdatamodeld bundle, or --swiftdata DIR", to: &standardError)
            throw ExitCode.inputError
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
            print(error, to: &standardError)
            throw ExitCode.inputError
        }
        let mappings = MappingModels(searching: [ModelPaths.parent(of: bundle.bundlePath)])
        // Each version hashed once, for its digest and for the diffs it takes part in.
        let hashes = BundleVersionHashes(bundle)
        // Per version in order, the migration the path takes from it (nil: the current version).
        var steps = [BundleVersions.Migration?](repeating: nil, count: bundle.order.count)
        for migration in bundle.migrations(along: judgedPath, mappings: mappings, hashes: hashes) {
            steps[migration.step.olderIndex] = migration
        }
        switch format {
        case .table: print(table(bundle, judgedPath, steps, hashes, mappings: mappings), terminator: "")
        case .json: FileHandle.standardOutput.write(try json(bundle, judgedPath, steps, hashes))
        case .corestore: print(coreStoreLocks(hashes), terminator: "")
        }
        if lock {
            let lockPath = ShippedVersions.lockFilePath(forBundle: bundle.bundlePath)
            do {
                let versions = try bundle.versions.map { model in
                    VersionsLock.version(model, contents: String(decoding: try ModelVersionInputs.read(model.file, limits: .standard),
                                                                 as: UTF8.self))
                }
                let lockFile = VersionsLock(bundle: (bundle.bundlePath as NSString).lastPathComponent, versions: versions)
                try lockFile.encoded().write(to: URL(fileURLWithPath: lockPath))
                print("wrote \(lockPath)", to: &standardError)
            } catch {
                print("\(lockPath): error: \(error)", to: &standardError)
                throw ExitCode.inputError
            }
        }
    }

    /// `--swiftdata DIR`: the rendering and the lock come from `SwiftDataModel`.
    private func runSwiftData(_ folder: String) throws {
        #if MOMLINT_HOOK_BUILD
        // Exits 2: the hook's build has no Swift parser.
        _ = try SwiftDataVersionInputs.versions(at: folder)
        #else
        var standardError = StandardError()
        let versions = try SwiftDataVersionInputs.versions(at: folder)
        switch format {
        case .table: print(SwiftDataVersionsRendering.table(versions), terminator: "")
        case .json: FileHandle.standardOutput.write(try SwiftDataVersionsRendering.json(versions))
        case .corestore:
            print(versions.ordered.map { "// \($0.name)\n" + CoreStoreVersionLock.literal($0.hashes) }.joined(separator: "\n"),
                  terminator: "")
        }
        if lock {
            let lockPath = ShippedVersions.lockFilePath(forBundle: folder)
            do {
                try SwiftDataShippedVersions.lock(of: versions).encoded().write(to: URL(fileURLWithPath: lockPath))
                print("wrote \(lockPath)", to: &standardError)
            } catch {
                print("\(lockPath): error: \(error)", to: &standardError)
                throw ExitCode.inputError
            }
        }
        #endif
    }

    private func table(_ bundle: BundleVersions, _ path: MigrationPath, _ steps: [BundleVersions.Migration?],
                       _ hashes: BundleVersionHashes, mappings: MappingModels) -> String {
        var text = "\(bundle.bundlePath) (\(bundle.order.count) versions, ordered by \(bundle.orderSource.rawValue))\n"
        text += "path: \(path.rawValue) (" + (path == .direct
            ? "Core Data migrates a store of each older version straight to the current one"
            : "the app migrates each version to the next; a store reaches the current version when every step after it migrates")
            + ")\n"
        let width = max(7, bundle.names.map(\.count).max() ?? 0)
        text += "  " + "version".padding(toLength: width, withPad: " ", startingAt: 0) + "  digest    migrating to \(path.destinationWords)\n"
        for (index, version) in bundle.order.enumerated() {
            let name = version.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let digest = (hashes.hashes(ofVersion: version.name)?.digest?.short ?? "-").padding(toLength: 8, withPad: " ", startingAt: 0)
            let verdict: String
            switch version {
            case .unreadable(let unreadable): verdict = "unreadable: \(unreadable.error.problem)"
            case .readable:
                if index == bundle.currentOrderIndex {
                    verdict = "current"
                } else if let step = steps[index] {
                    let target = path == .stepwise ? "→ '\(step.newer.name)': " : ""
                    verdict = target + (step.diff.map(DiffRendering.summary) ?? "not checked: '\(step.newer.name)' cannot be read")
                } else {
                    verdict = ""
                }
            }
            let after = index > bundle.currentOrderIndex ? "  (ordered after the current version)" : ""
            text += "  \(name)  \(digest)  \(verdict)\(after)\n"
        }
        for group in hashes.identicalGroups {
            text += "identical to Core Data: \(group.map { "'\($0)'" }.joined(separator: ", ")) (equal digests: "
                + "a store written by one opens with the others without migration)\n"
        }
        if path == .stepwise, let note = Self.stepwiseNote(bundle, steps) { text += "note: \(note)\n" }
        if path == .direct, let note = MigrationPath.stepwiseHint(
            bundle, failingCount: (0..<max(0, bundle.currentOrderIndex - 1)).count { steps[$0]?.diff?.failure != nil },
            mappings: { mappings }) { text += "note: \(note)\n" }
        if let note = Self.afterCurrentNote(bundle) { text += "note: \(note)\n" }
        return text
    }

    /// On the stepwise path, which older versions' stores cannot reach the current version: those
    /// before a step that fails.
    private static func stepwiseNote(_ bundle: BundleVersions, _ steps: [BundleVersions.Migration?]) -> String? {
        guard let lastFailing = (0..<bundle.currentOrderIndex).last(where: { steps[$0]?.diff?.failure != nil }) else { return nil }
        let stranded = bundle.order[...lastFailing].map { "'\($0.name)'" }
        return "stores of \(stranded.joined(separator: ", ")) cannot reach '\(bundle.current.version.name)' step by step: "
            + "the step from '\(bundle.order[lastFailing].name)' to '\(steps[lastFailing]?.newer.name ?? "")' fails"
    }

    /// Each version's CoreStore `VersionLock` literal, headed by a comment naming it.
    private func coreStoreLocks(_ hashes: BundleVersionHashes) -> String {
        hashes.versions.map { version in
            "// \(version.name)\n" + CoreStoreVersionLock.literal(version.hashes)
        }.joined(separator: "\n")
    }

    /// Versions ordered after the current one are compared like the others (Core Data migrates
    /// a store of any version to the current one); that they exist suggests a mistake.
    static func afterCurrentNote(_ bundle: BundleVersions) -> String? {
        let after = bundle.afterCurrent.map { "'\($0.name)'" }
        guard !after.isEmpty else { return nil }
        return "\(after.joined(separator: ", ")) \(after.count == 1 ? "is" : "are") ordered after the current version "
            + "'\(bundle.current.version.name)' (by \(bundle.orderSource.rawValue)): maybe the current version is not the newest, "
            + "or the order is not the intended one (migration.version_order in .momlint.yml, or --order). "
            + "Stores written by \(after.count == 1 ? "it" : "them") are still migrated to the current version."
    }

    private struct Document: Encodable {
        struct Version: Encodable {
            var name: String
            var identifier: String?
            var file: String
            var current: Bool
            /// Ordered after the current version (stores it wrote still migrate to the current one).
            var afterCurrent: Bool
            /// Why the version could not be read; absent when it was read.
            var unreadable: String?
            /// Core Data's NSStoreModelVersionHashesDigest (base64); absent when unreadable or unhashable.
            var versionHashesDigest: String?
            /// The other versions with the same digest: one schema to Core Data.
            var identicalTo: [String]?
            /// The migration straight to the current version (the direct path, and a version
            /// ordered after the current one on either path).
            var toCurrent: Migration?
            /// On the stepwise path, the step to the next version.
            var toNext: Migration?
        }
        struct Migration: Encodable {
            var to: String
            var verdict: String?
            var lightweight: Bool?
            var needsMigration: Bool?
            var dataLoss: Bool?
            var hasMappingModel: Bool?
            var changeCount: Int?
            /// Why the migration was not compared (the version it goes to cannot be read).
            var notChecked: String?
        }
        var schemaVersion: Int
        var bundle: String
        var orderedBy: String
        /// `direct` or `stepwise` (docs/migrations.md, "Migration paths").
        var path: String
        var current: String
        var previous: String?
        var versions: [Version]
    }

    private func json(_ bundle: BundleVersions, _ path: MigrationPath, _ steps: [BundleVersions.Migration?],
                      _ hashes: BundleVersionHashes) throws -> Data {
        let document = Document(
            schemaVersion: DiffRendering.schemaVersion, bundle: bundle.bundlePath, orderedBy: bundle.orderSource.rawValue,
            path: path.rawValue, current: bundle.current.version.name, previous: bundle.previousVersion?.name,
            versions: bundle.order.enumerated().map { index, version in
                let model = version.model
                let unreadable: BundleVersions.UnreadableVersion? = if case .unreadable(let u) = version { u } else { nil }
                let migration = model == nil ? nil : steps[index].map { step in
                    Document.Migration(
                        to: step.newer.name, verdict: step.diff?.verdict.rawValue, lightweight: step.diff?.isLightweight,
                        needsMigration: step.diff?.needsMigration, dataLoss: step.diff?.losesData,
                        hasMappingModel: step.diff?.hasMappingModel, changeCount: step.diff?.changes.count,
                        notChecked: step.diff == nil ? "'\(step.newer.name)' cannot be read" : nil)
                }
                return Document.Version(
                    name: version.name, identifier: model?.userDefinedModelVersionIdentifier,
                    file: model?.file ?? unreadable?.error.path ?? "",
                    current: index == bundle.currentOrderIndex, afterCurrent: index > bundle.currentOrderIndex,
                    unreadable: unreadable?.error.problem,
                    versionHashesDigest: hashes.hashes(ofVersion: version.name)?.digest?.base64,
                    identicalTo: { let same = hashes.versions(identicalTo: version.name); return same.isEmpty ? nil : same }(),
                    toCurrent: steps[index]?.isToCurrent == true ? migration : nil,
                    toNext: steps[index]?.isToCurrent == false ? migration : nil)
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }
}

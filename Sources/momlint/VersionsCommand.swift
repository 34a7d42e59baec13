import ArgumentParser
import DataModel
import Foundation
import ModelDiff

struct VersionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "versions",
        abstract: "List a bundle's versions in order, the current one, and what migrating each to it takes.",
        discussion: """
            Versions are ordered by the natural order of their names (Model, Model 2, … Model 10), by \
            userDefinedModelVersionIdentifier when every version sets a distinct one, or by --order. \
            With --lock, also writes <bundle>.momlint-lock.json beside the bundle: every version's contents \
            as shipped, which shipped_version_modified compares with when it exists. \
            Exit codes: 0 listed; 2 bad input.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case table, json
    }

    @Argument(help: ArgumentHelp("An .xcdatamodeld bundle.", valueName: "bundle"))
    var path: String

    @Option(help: "The output format: table or json.")
    var format: Format = .table

    @Option(help: ArgumentHelp("Version names in order, comma-separated, for bundles whose names do not sort.",
                               valueName: "names"))
    var order: String?

    @Flag(help: "Write the versions lock file beside the bundle.")
    var lock = false

    func run() throws {
        var standardError = StandardError()
        let bundle: BundleVersions
        do {
            let names = order?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            bundle = try ModelVersionInputs.bundle(at: path, versionOrder: names)
        } catch {
            print(error, to: &standardError)
            throw ExitCode.inputError
        }
        let folder = (bundle.bundlePath as NSString).deletingLastPathComponent
        let mappings = MappingModels(searching: [folder.isEmpty ? "." : folder])
        let diffs: [SchemaDiff?] = bundle.versions.indices.map { index in
            guard index != bundle.currentIndex else { return nil }
            let older = bundle.versions[index]
            return SchemaDiff(from: older, to: bundle.current,
                              hasMappingModel: mappings.covers(from: older.version.name, to: bundle.current.version.name,
                                                               inBundle: (bundle.bundlePath as NSString).lastPathComponent))
        }
        switch format {
        case .table: print(table(bundle, diffs), terminator: "")
        case .json: FileHandle.standardOutput.write(try json(bundle, diffs))
        }
        if lock {
            let lockPath = ShippedVersions.lockFilePath(forBundle: bundle.bundlePath)
            do {
                let versions = try bundle.versions.map { model in
                    VersionsLock.Version(name: model.version.name,
                                         contents: String(decoding: try ModelVersionInputs.read(model.file, limits: .standard), as: UTF8.self))
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

    private func table(_ bundle: BundleVersions, _ diffs: [SchemaDiff?]) -> String {
        var text = "\(bundle.bundlePath) (\(bundle.versions.count) versions, ordered by \(bundle.orderSource.rawValue))\n"
        let width = max(7, bundle.names.map(\.count).max() ?? 0)
        text += "  " + "version".padding(toLength: width, withPad: " ", startingAt: 0) + "  migrating to the current version\n"
        for (index, model) in bundle.versions.enumerated() {
            let name = model.version.name.padding(toLength: width, withPad: " ", startingAt: 0)
            let verdict = diffs[index].map(DiffRendering.summary) ?? "current"
            text += "  \(name)  \(verdict)\n"
        }
        return text
    }

    private struct Document: Encodable {
        struct Version: Encodable {
            var name: String
            var identifier: String?
            var file: String
            var current: Bool
            var toCurrent: Migration?
        }
        struct Migration: Encodable {
            var verdict: String
            var lightweight: Bool
            var needsMigration: Bool
            var dataLoss: Bool
            var hasMappingModel: Bool
            var changeCount: Int
        }
        var schemaVersion: Int
        var bundle: String
        var orderedBy: String
        var current: String
        var previous: String?
        var versions: [Version]
    }

    private func json(_ bundle: BundleVersions, _ diffs: [SchemaDiff?]) throws -> Data {
        let document = Document(
            schemaVersion: DiffRendering.schemaVersion, bundle: bundle.bundlePath, orderedBy: bundle.orderSource.rawValue,
            current: bundle.current.version.name, previous: bundle.previous?.version.name,
            versions: bundle.versions.enumerated().map { index, model in
                Document.Version(
                    name: model.version.name, identifier: model.userDefinedModelVersionIdentifier, file: model.file,
                    current: index == bundle.currentIndex,
                    toCurrent: diffs[index].map { diff in
                        Document.Migration(verdict: diff.verdict.rawValue, lightweight: diff.isLightweight,
                                           needsMigration: diff.needsMigration, dataLoss: diff.losesData,
                                           hasMappingModel: diff.hasMappingModel, changeCount: diff.changes.count)
                    })
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(document) + Data("\n".utf8)
    }
}

import Foundation
import VersionHashes

/// What `momlint versions` says about a bundle: each version in order with its digest and the
/// migration the app's path takes from it, which versions are one schema to Core Data, and
/// notes; as a table, a JSON document, or CoreStore's `VersionLock` literals.
public struct BundleVersionsReport {
    public let bundle: BundleVersions
    public let path: MigrationPath
    public let mappings: MappingModels
    /// Each version hashed once, for its digest and for the diffs it takes part in.
    public let hashes: BundleVersionHashes
    /// Per version in order, the migration the path takes from it (nil: the current version).
    public let steps: [BundleVersions.Migration?]

    public init(_ bundle: BundleVersions, path: MigrationPath, mappings: MappingModels) {
        self.bundle = bundle
        self.path = path
        self.mappings = mappings
        hashes = BundleVersionHashes(bundle)
        var steps = [BundleVersions.Migration?](repeating: nil, count: bundle.order.count)
        for migration in bundle.migrations(along: path, mappings: mappings, hashes: hashes) {
            steps[migration.step.olderIndex] = migration
        }
        self.steps = steps
    }

    /// The table `momlint versions` prints.
    public var table: String {
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
        if path == .stepwise, let note = stepwiseNote { text += "note: \(note)\n" }
        if path == .direct, let note = MigrationPath.stepwiseHint(
            bundle, failingCount: (0..<max(0, bundle.currentOrderIndex - 1)).count { steps[$0]?.diff?.failure != nil },
            mappings: { mappings }) { text += "note: \(note)\n" }
        if let note = Self.afterCurrentNote(bundle) { text += "note: \(note)\n" }
        return text
    }

    /// On the stepwise path, which older versions' stores cannot reach the current version: those
    /// before a step that fails.
    private var stepwiseNote: String? {
        guard let lastFailing = (0..<bundle.currentOrderIndex).last(where: { steps[$0]?.diff?.failure != nil }) else { return nil }
        let stranded = bundle.order[...lastFailing].map { "'\($0.name)'" }
        return "stores of \(stranded.joined(separator: ", ")) cannot reach '\(bundle.current.version.name)' step by step: "
            + "the step from '\(bundle.order[lastFailing].name)' to '\(steps[lastFailing]?.newer.name ?? "")' fails"
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

    /// The JSON document `momlint versions --format json` writes (docs/migrations.md).
    public func json() throws -> Data {
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

import Foundation

/// How an app takes a store of an older version to the current one, which decides which pairs
/// of versions must migrate (docs/migrations.md, "Migration paths").
public enum MigrationPath: String, Sendable, Codable, CaseIterable {
    /// Core Data's automatic migration (`NSPersistentContainer`, or
    /// `NSMigratePersistentStoresAutomaticallyOption`): a store of any older version opens with
    /// the current model, through a mapping model for exactly that pair or an inferred one.
    case direct
    /// An app that migrates each version to the next (`NSMigrationManager` per step, as
    /// WooCommerce's `CoreDataIterativeMigrator` or BookPlayer's `DataMigrationManager` do): a
    /// store of an older version reaches the current one when every step after it migrates.
    case stepwise

    /// What each migration compared goes to, in words.
    public var destinationWords: String {
        switch self {
        case .direct: "the current version"
        case .stepwise: "the next version"
        }
    }
}

extension BundleVersions {
    /// One migration a path takes: a store of `older` opened with `newer`.
    public struct Step: Sendable {
        /// The index in `order` of the version migrated from.
        public var olderIndex: Int
        /// The index in `order` of the version migrated to.
        public var newerIndex: Int
    }

    /// The migrations a path takes, oldest first: `direct`, every other version to the current
    /// one; `stepwise`, each version up to the current one to the next, and (as `direct`) each
    /// version ordered after the current one to it, since only a downgrade meets those.
    public func steps(along path: MigrationPath) -> [Step] {
        var steps: [Step] = []
        for index in order.indices where index != currentOrderIndex {
            if path == .stepwise && index < currentOrderIndex {
                steps.append(Step(olderIndex: index, newerIndex: index + 1))
            } else {
                steps.append(Step(olderIndex: index, newerIndex: currentOrderIndex))
            }
        }
        return steps
    }

    /// One migration of a path and what it takes.
    public struct Migration: Sendable {
        public var step: Step
        /// The version a store is migrated from, and the one it is opened with.
        public var older: Version
        public var newer: Version
        /// The migration goes to the current version (else to the next one, on the stepwise path).
        public var isToCurrent: Bool
        /// Nil when either version cannot be read.
        public var diff: SchemaDiff?

        /// The version of the two that cannot be read, when one cannot.
        public var unreadable: UnreadableVersion? {
            [older, newer].lazy.compactMap { if case .unreadable(let version) = $0 { version } else { nil } }.first
        }
    }

    /// Every migration of `path`, oldest first (`steps(along:)`), each compared once: a mapping
    /// model covers a pair when one of `mappings` names both versions; `hashes` are the bundle's.
    public func migrations(along path: MigrationPath, mappings: MappingModels, hashes: BundleVersionHashes) -> [Migration] {
        let bundleName = (bundlePath as NSString).lastPathComponent
        return steps(along: path).map { step in
            let (older, newer) = (order[step.olderIndex], order[step.newerIndex])
            let diff = older.model.flatMap { older in
                newer.model.map { newer in
                    SchemaDiff(from: older, to: newer,
                               hasMappingModel: mappings.covers(from: older.version.name, to: newer.version.name, inBundle: bundleName),
                               olderHashes: hashes.hashes(ofVersion: older.version.name),
                               newerHashes: hashes.hashes(ofVersion: newer.version.name))
                }
            }
            return Migration(step: step, older: older, newer: newer, isToCurrent: step.newerIndex == currentOrderIndex, diff: diff)
        }
    }

    /// The step that reaches the current version from the one before it: the only one compared
    /// without `--all-versions`, the same on either path.
    public var lastStep: Step? {
        currentOrderIndex > 0 ? Step(olderIndex: currentOrderIndex - 1, newerIndex: currentOrderIndex) : nil
    }
}

extension MappingModels {
    /// The pairs of versions the mapping models of `bundle` map, when there is at least one and
    /// every one maps a version to the next in order: how an app that migrates step by step
    /// uses them. Nil otherwise.
    public func consecutiveMappings(of bundle: BundleVersions) -> [[String]]? {
        let names = bundle.names
        let mapped = mappedVersions(among: names, inBundle: (bundle.bundlePath as NSString).lastPathComponent)
        let consecutive = mapped.allSatisfy { pair in
            guard pair.count == 2, let from = names.firstIndex(of: pair[0]), let to = names.firstIndex(of: pair[1])
            else { return false }
            return to - from == 1
        }
        return !mapped.isEmpty && consecutive ? mapped : nil
    }
}

extension MigrationPath {
    /// What `lint` and `versions` say once per bundle when the direct path fails
    /// (`SchemaDiff.failure`) for `failingCount` older versions before the previous one while
    /// its mapping models map only consecutive versions; nil otherwise. `mappings` is searched
    /// only when some version fails.
    public static func stepwiseHint(_ bundle: BundleVersions, failingCount: Int,
                                    mappings: () -> MappingModels) -> String? {
        guard failingCount > 0, let mapped = mappings().consecutiveMappings(of: bundle) else { return nil }
        let bundleName = (bundle.bundlePath as NSString).lastPathComponent
        let currentName = bundle.current.version.name
        let shown = mapped.prefix(2).map { "'\($0[0])' → '\($0[1])'" }.joined(separator: ", ") + (mapped.count > 2 ? ", …" : "")
        return "the \(mapped.count) mapping model\(mapped.count == 1 ? "" : "s") of \(bundleName) map\(mapped.count == 1 ? "s" : "") "
            + "only consecutive versions (\(shown)), as an app that migrates one version at a time uses them, "
            + "and migrating straight to '\(currentName)' fails for \(failingCount) older "
            + "version\(failingCount == 1 ? "" : "s"); if the app migrates step by step, set "
            + "'migration: {path: stepwise}' in .momlint.yml (or pass --migration-path stepwise)"
    }
}

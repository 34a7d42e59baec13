import DataModel
import Foundation
import ModelDiff

/// How `momlint lint` compares the versions of a bundle.
public struct MigrationCheckOptions: Sendable {
    /// Compare every version other than the current one with it, not only the previous one.
    public var allOlderVersions: Bool
    /// Where `shipped_version_modified` reads shipped versions from.
    public var base: VersionBase
    /// Version names in order, by bundle folder name or path (`migration.version_order`).
    public var versionOrder: [String: [String]]
    /// Folders searched for `.xcmappingmodel`s besides each bundle's own folder.
    public var mappingSearchPaths: [String]
    /// Reads of shipped versions started when the bundles were found (`readsShippedVersions`
    /// says when to start them); any version they do not cover is read when it is compared.
    public var shippedVersionReads: ShippedVersionReads?

    public init(allOlderVersions: Bool = false, base: VersionBase = .head, versionOrder: [String: [String]] = [:],
                mappingSearchPaths: [String] = [], shippedVersionReads: ShippedVersionReads? = nil) {
        self.allOlderVersions = allOlderVersions
        self.base = base
        self.versionOrder = versionOrder
        self.mappingSearchPaths = mappingSearchPaths
        self.shippedVersionReads = shippedVersionReads
    }
}

extension LintRun {
    /// Runs the engine's migration rules over every bundle of two or more versions that this
    /// run linted, adding their findings to the current version's report. The versions the run
    /// loaded are reused; only the others are read, and a version that fails to load is
    /// reported once, like any input, unless it is an older version: old versions must never
    /// change, so one that cannot be read gets a note where it is compared and fails nothing.
    public mutating func checkMigrations(loader: ModelLoader, engine: LintEngine, options: MigrationCheckOptions) {
        guard engine.checksMigrations else { return }
        var bundles: [String] = []
        var linted: [String: [Model]] = [:]
        for report in reports {
            guard let bundle = report.model.version.bundlePath, report.model.version.bundleVersionNames.count >= 2
            else { continue }
            if linted[bundle] == nil { bundles.append(bundle) }
            linted[bundle, default: []].append(report.model)
        }
        guard !bundles.isEmpty else { return }
        let readsBase = Self.readsShippedVersions(from: options.base, engine: engine)
        // One walk for every bundle (the linted paths and each bundle's own folder), and only
        // once a pair's findings depend on a mapping model (`MigrationPair`): most pairs are
        // lightweight and lose nothing, and the walk may cover a whole source tree.
        var searchedMappings: MappingModels?
        func mappingModelCovers(from older: String, to current: String, inBundle bundleName: String) -> Bool {
            let mappings = searchedMappings
                ?? MappingModels(searching: options.mappingSearchPaths + bundles.map(ModelPaths.parent(of:)))
            searchedMappings = mappings
            return mappings.covers(from: older, to: current, inBundle: bundleName)
        }
        for bundlePath in bundles {
            // A version whose failure this run reported already is not read again.
            let versionNames = linted[bundlePath]?.first?.version.bundleVersionNames ?? []
            let failed = Set(versionNames.filter { name in
                let folder = bundlePath + "/" + name + ".xcdatamodel"
                return loadFailures.contains { $0.path == folder || $0.path.hasPrefix(folder + "/") }
            })
            // Every version is read, since a version identifier may decide the order; an older
            // one that cannot be read fails nothing, and is named below only if compared.
            let reading = BundleVersions.read(
                bundle: bundlePath, loader: loader, reusing: linted[bundlePath] ?? [], skipping: failed,
                configuredOrder: BundleVersions.configuredOrder(ofBundle: bundlePath, in: options.versionOrder))
            loadFailures += reading.failures
            guard let bundle = reading.bundle, bundle.order.count >= 2 else { continue }
            let sources = bundle.migrationSources(allOlder: options.allOlderVersions)
            for case .unreadable(let version) in sources {
                notes.append(LoadNote(path: version.error.path, message:
                    "migration from '\(version.name)' to '\(bundle.current.version.name)' not checked: \(version.error.problem)"))
            }
            var base: BundleBase?
            if readsBase {
                do {
                    base = try ShippedVersions.base(ofBundle: bundlePath, at: options.base, reads: options.shippedVersionReads)
                } catch {
                    loadFailures.append(LoadError(path: bundlePath, reason: .unreadable(error.description)))
                }
            }
            let bundleName = (bundlePath as NSString).lastPathComponent
            let compared = Set(sources.compactMap(\.model?.file))
            let orderedAfterCurrent = Set(bundle.afterCurrent.compactMap(\.model?.file))
            // Every readable non-current version is checked against the base
            // (shipped_version_modified); only the previous (or every other) one is compared with
            // the current one. The diffs come first: git, started when the bundle was found, may
            // still be reading the base.
            let comparisons = bundle.older.map { older in
                MigrationPair(
                    older: older, current: bundle.current,
                    hasMappingModel: mappingModelCovers(from: older.version.name, to: bundle.current.version.name, inBundle: bundleName),
                    comparesMigration: compared.contains(older.file),
                    olderIsOrderedAfterCurrent: orderedAfterCurrent.contains(older.file))
            }
            var pairs: [MigrationPair] = []
            for var pair in comparisons {
                let older = pair.older
                let bases = base?.contents(of: older.file, versionName: older.version.name) ?? []
                let committed = bases.first { $0.stagedBytes == nil }
                let committedModel = committed.flatMap {
                    $0.equalsWorkingTree ? older : $0.bytes.isEmpty ? nil : baseModel($0.bytes, like: older, loader: loader)
                }
                pair.olderAtBase = committedModel
                pair.baseName = committed?.name
                pair.baseEntityHashes = committed?.entityHashes
                pairs.append(pair)
                // An edit staged in the index but not in the working tree: checked on its own,
                // against the committed file parsed above.
                for staged in bases where staged.stagedBytes != nil {
                    if let stagedModel = baseModel(staged.stagedBytes ?? [], like: older, loader: loader) {
                        pairs.append(MigrationPair(
                            older: stagedModel, current: bundle.current, comparesMigration: false,
                            olderAtBase: staged.bytes == committed?.bytes ? committedModel
                                : baseModel(staged.bytes, like: older, loader: loader),
                            baseName: staged.name))
                    }
                }
            }
            let findings = engine.lintMigrations(pairs)
            guard !findings.isEmpty else { continue }
            if let index = reports.firstIndex(where: { $0.model.file == bundle.current.file }) {
                reports[index].findings = (reports[index].findings + findings).sorted(by: Finding.reportOrder)
            } else {
                reports.append(ModelReport(model: bundle.current, findings: findings))
            }
        }
    }

    /// True when `checkMigrations` reads shipped versions (from git or a lock file): only for the
    /// rule that compares with them, and not with `--since none`.
    public static func readsShippedVersions(from base: VersionBase, engine: LintEngine) -> Bool {
        base != .none && engine.checksMigrations
            && engine.rules.contains { $0.description.id == ShippedVersionModifiedRule.description.id }
    }

    /// A base revision's bytes read as the version `like` (same file name and version), or nil
    /// when the base does not parse (then it cannot be compared, which is no finding).
    private func baseModel(_ bytes: [UInt8], like version: Model, loader: ModelLoader) -> Model? {
        try? loader.model(fromContents: bytes, file: version.file, version: version.version)
    }
}

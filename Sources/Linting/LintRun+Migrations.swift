import DataModel
import Foundation
import ModelDiff
import VersionHashes

/// How `momlint lint` compares the versions of a bundle.
public struct MigrationCheckOptions: Sendable {
    /// Compare every migration of the path, not only the previous version's to the current one.
    public var allOlderVersions: Bool
    /// How the app migrates: every older version straight to the current one (the default), or
    /// each version to the next (`migration.path`, `--migration-path`).
    public var path: MigrationPath
    /// Where `shipped_version_modified` reads shipped versions from.
    public var base: VersionBase
    /// Version names in order, by bundle folder name or path (`migration.version_order`).
    public var versionOrder: [String: [String]]
    /// Folders searched for `.xcmappingmodel`s besides each bundle's own folder.
    public var mappingSearchPaths: [String]
    /// Reads of shipped versions started when the bundles were found (`readsShippedVersions`
    /// says when to start them); any version they do not cover is read when it is compared.
    public var shippedVersionReads: ShippedVersionReads?

    public init(allOlderVersions: Bool = false, path: MigrationPath = .direct, base: VersionBase = .head,
                versionOrder: [String: [String]] = [:], mappingSearchPaths: [String] = [],
                shippedVersionReads: ShippedVersionReads? = nil) {
        self.allOlderVersions = allOlderVersions
        self.path = path
        self.base = base
        self.versionOrder = versionOrder
        self.mappingSearchPaths = mappingSearchPaths
        self.shippedVersionReads = shippedVersionReads
    }
}

extension LintRun {
    /// Runs the engine's migration rules over every bundle of two or more versions that this
    /// run linted, along the migration path (`options.path`), adding their findings to the
    /// current version's report. The versions the run loaded are reused; only the others are
    /// read. Xcode builds every version of a bundle, so a version that is not well-formed is a
    /// load failure, whichever version was named (even with no migration rule running); one in a
    /// format momlint cannot read (Xcode 3's binary format) fails nothing if it is not the one
    /// linted: old versions must never change, so it gets a note where it is compared.
    public mutating func checkMigrations(loader: ModelLoader, engine: LintEngine, options: MigrationCheckOptions) {
        var bundles: [String] = []
        var linted: [String: [Model]] = [:]
        for report in reports {
            guard let bundle = report.model.version.bundlePath, report.model.version.bundleVersionNames.count >= 2
            else { continue }
            if linted[bundle] == nil { bundles.append(bundle) }
            linted[bundle, default: []].append(report.model)
        }
        // A bundle whose named version failed to load is touched too: its other versions must
        // build as well, and a version that failed never hides them.
        var failedOnly: [String] = []
        for failure in loadFailures {
            if let bundle = Self.bundle(holding: failure.path), linted[bundle] == nil, !failedOnly.contains(bundle) {
                failedOnly.append(bundle)
            }
        }
        for bundlePath in failedOnly {
            let read = loader.loadAllVersions(ofBundle: bundlePath, reusing: [], skipping: failedVersions(ofBundle: bundlePath))
            loadFailures += read.failures.filter { !$0.isFormatMomlintCannotRead && !loadFailures.contains($0) }
        }
        guard !bundles.isEmpty else { return }
        let readsBase = Self.readsShippedVersions(from: options.base, engine: engine)
        // One walk for every bundle (the linted paths and each bundle's own folder), and only
        // once a pair's findings depend on a mapping model (`MigrationPair`): most pairs are
        // lightweight and lose nothing, and the walk may cover a whole source tree.
        var searchedMappings: MappingModels?
        func mappingModels() -> MappingModels {
            let mappings = searchedMappings
                ?? MappingModels(searching: options.mappingSearchPaths + bundles.map(ModelPaths.parent(of:)))
            searchedMappings = mappings
            return mappings
        }
        for bundlePath in bundles {
            // A version whose failure this run reported already is not read again.
            let failed = failedVersions(ofBundle: bundlePath)
            // Every version is read, since a version identifier may decide the order and Xcode
            // builds every version of a bundle: one that is not well-formed fails the lint
            // (`LoadError.isFormatMomlintCannotRead`); one in a format momlint cannot read fails
            // nothing, and is named below only if compared.
            let reading = BundleVersions.read(
                bundle: bundlePath, loader: loader, reusing: linted[bundlePath] ?? [], skipping: failed,
                configuredOrder: BundleVersions.configuredOrder(ofBundle: bundlePath, in: options.versionOrder))
            loadFailures += reading.failures
            loadFailures += reading.bundle?.unreadable.map(\.error).filter { !$0.isFormatMomlintCannotRead } ?? []
            guard engine.checksMigrations, let bundle = reading.bundle, bundle.order.count >= 2 else { continue }
            let steps = options.allOlderVersions ? bundle.steps(along: options.path) : bundle.lastStep.map { [$0] } ?? []
            // A version that is not well-formed failed above; one momlint cannot read is named
            // where a migration of the path needed it.
            for step in steps {
                switch (bundle.order[step.olderIndex], bundle.order[step.newerIndex]) {
                case (.unreadable(let version), _) where !version.error.isFormatMomlintCannotRead,
                     (_, .unreadable(let version)) where !version.error.isFormatMomlintCannotRead:
                    continue
                case (.unreadable(let version), let newer):
                    notes.append(LoadNote(path: version.error.path, message:
                        "migration from '\(version.name)' to '\(newer.name)' not checked: \(version.error.problem)"))
                case (let older, .unreadable(let version)):
                    notes.append(LoadNote(path: version.error.path, message:
                        "migration from '\(older.name)' to '\(version.name)' not checked: '\(version.name)' cannot be read: "
                            + version.error.problem))
                default:
                    break
                }
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
            // The version (its place in the order) each readable older version migrates to, when
            // that migration is compared.
            var comparedTarget: [Int: Int] = [:]
            for step in steps where bundle.order[step.newerIndex].model != nil {
                comparedTarget[step.olderIndex] = step.newerIndex
            }
            // Each version is hashed once, however many compared migrations it takes part in
            // (the current version in every direct one; stepwise, a version is the newer of one
            // step and the older of the next).
            var versionHashes: [Int: ModelVersionHashes] = [:]
            func hashes(ofVersionAt index: Int, _ model: Model) -> ModelVersionHashes {
                if let known = versionHashes[index] { return known }
                let computed = VersionHasher.hashes(of: model)
                versionHashes[index] = computed
                return computed
            }
            // Every readable non-current version is checked against the base
            // (shipped_version_modified); only the migrations of the path asked for are compared
            // (the last step, or with --all-versions every one). The diffs come first: git,
            // started when the bundle was found, may still be reading the base.
            let comparisons = bundle.order.indices.compactMap { index -> MigrationPair? in
                guard index != bundle.currentOrderIndex, let older = bundle.order[index].model else { return nil }
                let target = comparedTarget[index]
                let newer = target.flatMap { bundle.order[$0].model } ?? bundle.current
                return MigrationPair(
                    older: older, current: newer,
                    hasMappingModel: mappingModels().covers(from: older.version.name, to: newer.version.name, inBundle: bundleName),
                    comparesMigration: target != nil,
                    olderHashes: target.map { _ in hashes(ofVersionAt: index, older) },
                    currentHashes: target.map { hashes(ofVersionAt: $0, newer) },
                    olderIsOrderedAfterCurrent: index > bundle.currentOrderIndex)
            }
            // Said once per bundle when the direct path fails for older versions while every mapping
            // model of the bundle maps one version to the next: that is how an app that migrates step
            // by step (`NSMigrationManager` per step) uses them, and on that path those versions may be fine.
            if options.path == .direct {
                let previousFile = bundle.previous?.file
                let failing = comparisons.count { pair in
                    pair.comparesMigration && !pair.olderIsOrderedAfterCurrent && pair.older.file != previousFile
                        && pair.diff.failure != nil
                }
                if let hint = MigrationPath.stepwiseHint(bundle, failingCount: failing, mappings: mappingModels) {
                    notes.append(LoadNote(path: bundle.bundlePath, message: hint))
                }
            }
            var pairs: [MigrationPair] = []
            var baseFailure: String?
            for var pair in comparisons {
                let older = pair.older
                let read = base?.read(of: older.file, versionName: older.version.name)
                if let failure = read?.failure, baseFailure == nil { baseFailure = failure }
                let bases = read?.contents ?? []
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
            // Every way the base cannot be read is said once per bundle: the rule did not run.
            if let baseFailure {
                notes.append(LoadNote(path: bundlePath, message:
                    "shipped_version_modified did not run: the shipped versions could not be read from git (\(baseFailure))"))
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

    /// The versions of a bundle whose failure this run reported already (a failure naming the
    /// version's folder or a file in it).
    private func failedVersions(ofBundle bundlePath: String) -> Set<String> {
        let prefix = bundlePath.hasSuffix("/") ? bundlePath : bundlePath + "/"
        return Set(loadFailures.compactMap { failure -> String? in
            guard failure.path.hasPrefix(prefix),
                  let folder = failure.path.dropFirst(prefix.count).split(separator: "/").first,
                  folder.hasSuffix(".xcdatamodel") else { return nil }
            return String(folder.dropLast(".xcdatamodel".count))
        })
    }

    /// The `.xcdatamodeld` bundle a path lies in (a version folder or a file in one), if any.
    static func bundle(holding path: String) -> String? {
        let components = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let index = components.lastIndex(where: { $0.hasSuffix(".xcdatamodeld") }), index < components.count - 1
        else { return nil }
        return components[...index].joined(separator: "/")
    }

    /// True when `checkMigrations` and `lintSwiftData` read shipped versions (from git or a lock
    /// file): only for the rule that compares with them, and not with `--since none`.
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

import DataModel
import Foundation
import ModelDiff

/// How `momlint lint` compares the versions of a bundle.
public struct MigrationCheckOptions: Sendable {
    /// Compare every version before the current one with it, not only the previous one.
    public var allOlderVersions: Bool
    /// Where `shipped_version_modified` reads shipped versions from.
    public var base: VersionBase
    /// Version names in order, by bundle folder name or path (`migration.version_order`).
    public var versionOrder: [String: [String]]
    /// Folders searched for `.xcmappingmodel`s besides each bundle's own folder.
    public var mappingSearchPaths: [String]

    public init(allOlderVersions: Bool = false, base: VersionBase = .head, versionOrder: [String: [String]] = [:],
                mappingSearchPaths: [String] = []) {
        self.allOlderVersions = allOlderVersions
        self.base = base
        self.versionOrder = versionOrder
        self.mappingSearchPaths = mappingSearchPaths
    }
}

extension LintRun {
    /// Runs the engine's migration rules over every bundle of two or more versions that this
    /// run linted, adding their findings to the current version's report. Bundles are loaded
    /// again with every version; a version that fails to load is reported once, like any input.
    public mutating func checkMigrations(loader: ModelLoader, engine: LintEngine, options: MigrationCheckOptions) {
        var bundles: [String] = []
        for report in reports {
            if let bundle = report.model.version.bundlePath, report.model.version.bundleVersionNames.count >= 2,
               !bundles.contains(bundle) {
                bundles.append(bundle)
            }
        }
        // Asked second: a failing `is` cast scans every protocol conformance in the binary, and
        // one per rule was a sixth of a small model's whole run (callgrind), for the many runs
        // that have no bundle of two versions.
        guard !bundles.isEmpty, engine.rules.contains(where: { $0 is any MigrationRule.Type }) else { return }
        var allVersions = loader
        allVersions.loadsAllVersions = true
        let knownFailures = Set(loadFailures.map(\.description))
        let linted = MappingModels(searching: options.mappingSearchPaths)
        for bundlePath in bundles {
            let loaded = allVersions.load(paths: [bundlePath])
            loadFailures += loaded.failures.filter { !knownFailures.contains($0.description) }
            guard let bundle = BundleVersions.group(loaded.models, configuredOrder: options.versionOrder).first,
                  bundle.versions.count >= 2 else { continue }
            let folder = (bundlePath as NSString).deletingLastPathComponent
            let beside = MappingModels(searching: [folder.isEmpty ? "." : folder])
            var pairs: [MigrationPair] = []
            let compared = Set(bundle.migrationSources(allEarlier: options.allOlderVersions).map(\.file))
            // Every non-current version is checked against the base (shipped_version_modified);
            // only the previous (or every earlier) one is compared with the current one.
            for older in bundle.older {
                let compares = compared.contains(older.file)
                let bases: [BaseContents]
                do {
                    bases = try ShippedVersions.contents(of: older.file, bundle: bundlePath,
                                                        versionName: older.version.name, base: options.base)
                } catch {
                    loadFailures.append(LoadError(path: bundlePath, reason: .unreadable(error.description)))
                    bases = []
                }
                let bundleName = (bundlePath as NSString).lastPathComponent
                let covered = beside.covers(from: older.version.name, to: bundle.current.version.name, inBundle: bundleName)
                    || linted.covers(from: older.version.name, to: bundle.current.version.name, inBundle: bundleName)
                let first = bases.first { $0.stagedBytes == nil }
                pairs.append(MigrationPair(
                    older: older, current: bundle.current, hasMappingModel: covered, comparesMigration: compares,
                    olderAtBase: first.flatMap { baseModel($0.bytes, like: older, loader: loader) }, baseName: first?.name))
                // An edit staged in the index but not in the working tree: checked on its own.
                for staged in bases where staged.stagedBytes != nil {
                    if let stagedModel = baseModel(staged.stagedBytes ?? [], like: older, loader: loader) {
                        pairs.append(MigrationPair(
                            older: stagedModel, current: bundle.current, comparesMigration: false,
                            olderAtBase: baseModel(staged.bytes, like: older, loader: loader), baseName: staged.name))
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

    /// A base revision's bytes read as the version `like` (same file name and version), or nil
    /// when the base does not parse (then it cannot be compared, which is no finding).
    private func baseModel(_ bytes: [UInt8], like version: Model, loader: ModelLoader) -> Model? {
        try? loader.model(fromContents: bytes, file: version.file, version: version.version)
    }
}

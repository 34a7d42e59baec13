import DataModel
import Foundation

/// The versions of one `.xcdatamodeld` bundle, in version order, with the current one marked.
///
/// Core Data migrates a store from whichever version wrote it straight to the current version,
/// so every version other than the current one is "older", and the one just before the current
/// one in version order is "previous" (docs/migrations.md).
public struct BundleVersions: Sendable {
    /// How the order of the versions was decided.
    public enum OrderSource: String, Sendable, Codable {
        /// Natural order of the folder names: `Model`, `Model 2`, … `Model 10`.
        case folderNames = "folder names"
        /// Every version sets a distinct `userDefinedModelVersionIdentifier` (Xcode's
        /// "Identifier" field), compared in natural order.
        case versionIdentifiers = "version identifiers"
        /// A `.momlint.yml` `migration.version_order` list.
        case configured
    }

    /// A version of the bundle that could not be read (for example Xcode 3's binary format).
    /// Old versions must never change, so it is listed, and named where a comparison needs it,
    /// but fails nothing by itself.
    public struct UnreadableVersion: Sendable {
        public var name: String
        public var error: LoadError
    }

    /// One version in order: read, or not readable.
    public enum Version: Sendable {
        case readable(Model)
        case unreadable(UnreadableVersion)

        public var name: String {
            switch self {
            case .readable(let model): model.version.name
            case .unreadable(let version): version.name
            }
        }

        public var model: Model? {
            if case .readable(let model) = self { return model }
            return nil
        }
    }

    public var bundlePath: String
    /// Every version, readable or not, oldest first.
    public var order: [Version]
    /// The index in `order` of the current version (always readable).
    public var currentOrderIndex: Int
    public var orderSource: OrderSource

    /// The readable versions, oldest first.
    public var versions: [Model] { order.compactMap(\.model) }
    /// The versions that could not be read, oldest first.
    public var unreadable: [UnreadableVersion] {
        order.compactMap { if case .unreadable(let version) = $0 { version } else { nil } }
    }
    /// The current version.
    public var current: Model
    /// The version just before the current one in order, readable or not; nil when the current
    /// one is first.
    public var previousVersion: Version? { currentOrderIndex > 0 ? order[currentOrderIndex - 1] : nil }
    /// The version just before the current one; nil when the current one is first or the one
    /// before it cannot be read.
    public var previous: Model? { previousVersion?.model }
    /// Every readable version other than the current one, oldest first. Core Data migrates a
    /// store from whichever version wrote it straight to the current one, so each is older.
    public var older: [Model] { order.indices.filter { $0 != currentOrderIndex }.compactMap { order[$0].model } }
    /// The versions ordered after the current one. Stores they wrote are migrated to the
    /// current version too, so they are compared like any other; that they sort after it
    /// suggests the current version is not the newest (or the order is not the one intended).
    public var afterCurrent: [Version] { Array(order[(currentOrderIndex + 1)...]) }
    /// Every version's name, in order, readable or not.
    public var names: [String] { order.map(\.name) }

    /// Groups models loaded with `ModelLoader(loadsAllVersions: true)` by bundle, in the order the
    /// bundles first appear; models outside a bundle are left out. `configuredOrder` gives, by
    /// bundle folder name (`Model.xcdatamodeld`) or path, the version names in order.
    public static func group(_ models: [Model], configuredOrder: [String: [String]] = [:]) -> [BundleVersions] {
        var bundles: [String] = []
        var byBundle: [String: [Model]] = [:]
        for model in models {
            guard let bundle = model.version.bundlePath else { continue }
            if byBundle[bundle] == nil { bundles.append(bundle) }
            byBundle[bundle, default: []].append(model)
        }
        return bundles.compactMap { bundle in
            BundleVersions(bundlePath: bundle, models: byBundle[bundle] ?? [],
                           configuredOrder: Self.configuredOrder(ofBundle: bundle, in: configuredOrder))
        }
    }

    /// The configured order of a bundle (`migration.version_order`), keyed by the bundle's path
    /// as named, its absolute path, or its folder name.
    public static func configuredOrder(ofBundle bundle: String, in configured: [String: [String]]) -> [String]? {
        guard !configured.isEmpty else { return nil }
        let absolute = ModelPaths.absolute(bundle)
        let bundleName = URL(fileURLWithPath: absolute).lastPathComponent
        return configured[bundle] ?? configured[absolute] ?? configured[bundleName]
    }

    /// Orders `models` (the readable versions of one bundle) and `unreadable` (those that could
    /// not be read); nil when no version was read.
    public init?(bundlePath: String, models: [Model], unreadable: [UnreadableVersion] = [],
                 configuredOrder: [String]? = nil) {
        guard !models.isEmpty else { return nil }
        self.bundlePath = bundlePath
        let entries = models.map(Version.readable) + unreadable.map(Version.unreadable)
        let ordered: [Version]
        if let configuredOrder, !configuredOrder.isEmpty {
            let rank = Dictionary(configuredOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            // Versions the list does not name go after the ones it does, in natural order.
            ordered = entries.sorted { a, b in
                switch (rank[a.name], rank[b.name]) {
                case let (x?, y?): x < y
                case (_?, nil): true
                case (nil, _?): false
                case (nil, nil): ModelLoader.versionOrder(a.name, b.name)
                }
            }
            orderSource = .configured
        } else if unreadable.isEmpty, let identifiers = Self.distinctIdentifiers(models) {
            // Only when every version was read: an unreadable one's identifier is unknown.
            ordered = zip(entries, identifiers).sorted { ModelLoader.versionOrder($0.1, $1.1) }.map(\.0)
            orderSource = .versionIdentifiers
        } else {
            ordered = entries.sorted { ModelLoader.versionOrder($0.name, $1.name) }
            orderSource = .folderNames
        }
        order = ordered
        // The loader marks the current version; every other was loaded as `.otherVersion`.
        guard let index = ordered.firstIndex(where: { $0.model?.version.isCurrent == true })
                ?? ordered.lastIndex(where: { $0.model != nil }),
              let current = ordered[index].model else { return nil }
        currentOrderIndex = index
        self.current = current
    }

    /// Each model's `userDefinedModelVersionIdentifier` when every model sets a distinct one.
    private static func distinctIdentifiers(_ models: [Model]) -> [String]? {
        let identifiers = models.compactMap { model -> String? in
            guard let identifier = model.userDefinedModelVersionIdentifier?.trimmingEnds(while: { $0.isWhitespace && !$0.isNewline }),
                  !identifier.isEmpty else { return nil }
            return identifier
        }
        guard identifiers.count == models.count, Set(identifiers).count == identifiers.count else { return nil }
        return identifiers
    }
}

extension BundleVersions {
    /// What reading a bundle's versions gave: the versions in order (nil when the current one
    /// could not be read or the bundle holds none), and the failures that are not an older
    /// version's (the current version's, an unreadable `.xccurrentversion`).
    public struct Reading: Sendable {
        public var bundle: BundleVersions?
        public var failures: [LoadError]
    }

    /// Reads every version of `bundlePath` (`ModelLoader.loadAllVersions`: the models in
    /// `reusing` are not read again, the names in `skipping` not at all). An older version that
    /// fails to load becomes an `UnreadableVersion`, not a failure: old versions must never
    /// change, so it is named only where a comparison needs it.
    public static func read(bundle bundlePath: String, loader: ModelLoader, reusing loaded: [Model] = [],
                            skipping skipped: Set<String> = [], configuredOrder: [String]? = nil) -> Reading {
        let result = loader.loadAllVersions(ofBundle: bundlePath, reusing: loaded, skipping: skipped)
        let current = loader.currentVersionName(ofBundle: bundlePath)
        var unreadable: [UnreadableVersion] = []
        var failures: [LoadError] = []
        for failure in result.failures {
            if let name = versionName(of: failure, inBundle: bundlePath), name != current {
                unreadable.append(UnreadableVersion(name: name, error: failure))
            } else {
                failures.append(failure)
            }
        }
        let bundle = BundleVersions(bundlePath: bundlePath, models: result.models, unreadable: unreadable,
                                    configuredOrder: configuredOrder)
        return Reading(bundle: bundle?.current.version.name == current || current == nil ? bundle : nil,
                       failures: failures)
    }

    /// The version whose folder (or a file in it) a load failure names.
    static func versionName(of failure: LoadError, inBundle bundlePath: String) -> String? {
        let prefix = bundlePath.hasSuffix("/") ? bundlePath : bundlePath + "/"
        guard failure.path.hasPrefix(prefix) else { return nil }
        let folder = failure.path.dropFirst(prefix.count).split(separator: "/").first.map(String.init) ?? ""
        guard folder.hasSuffix(".xcdatamodel") else { return nil }
        return String(folder.dropLast(".xcdatamodel".count))
    }
}

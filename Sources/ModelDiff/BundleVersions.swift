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

    public var bundlePath: String
    /// Every version, oldest first.
    public var versions: [Model]
    /// The index in `versions` of the current version.
    public var currentIndex: Int
    public var orderSource: OrderSource

    public var current: Model { versions[currentIndex] }
    /// The version just before the current one; nil when the current one is first.
    public var previous: Model? { currentIndex > 0 ? versions[currentIndex - 1] : nil }
    /// Every version other than the current one, oldest first.
    public var older: [Model] { versions.indices.filter { $0 != currentIndex }.map { versions[$0] } }
    public var names: [String] { versions.map(\.version.name) }

    /// Groups models loaded with `ModelLoader(loadsAllVersions: true)` by bundle, in the order the
    /// bundles first appear; models outside a bundle are left out. `configuredOrder` gives, by
    /// bundle folder name (`Model.xcdatamodeld`) or path, the version names in order.
    public static func group(_ models: [Model], configuredOrder: [String: [String]] = [:]) -> [BundleVersions] {
        var order: [String] = []
        var byBundle: [String: [Model]] = [:]
        for model in models {
            guard let bundle = model.version.bundlePath else { continue }
            if byBundle[bundle] == nil { order.append(bundle) }
            byBundle[bundle, default: []].append(model)
        }
        return order.compactMap { bundle in
            let bundleName = bundle.split(separator: "/").last.map(String.init) ?? bundle
            let absolute = URL(fileURLWithPath: bundle).standardizedFileURL.path
            return BundleVersions(bundlePath: bundle, models: byBundle[bundle] ?? [],
                                  configuredOrder: configuredOrder[bundle] ?? configuredOrder[absolute]
                                      ?? configuredOrder[bundleName])
        }
    }

    /// Orders `models` (the versions of one bundle); nil when there are none.
    public init?(bundlePath: String, models: [Model], configuredOrder: [String]? = nil) {
        guard !models.isEmpty else { return nil }
        self.bundlePath = bundlePath
        let ordered: [Model]
        if let configuredOrder, !configuredOrder.isEmpty {
            let rank = Dictionary(configuredOrder.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            // Versions the list does not name go after the ones it does, in natural order.
            ordered = models.sorted { a, b in
                switch (rank[a.version.name], rank[b.version.name]) {
                case let (x?, y?): x < y
                case (_?, nil): true
                case (nil, _?): false
                case (nil, nil): ModelLoader.versionOrder(a.version.name, b.version.name)
                }
            }
            orderSource = .configured
        } else if let identifiers = Self.distinctIdentifiers(models) {
            ordered = zip(models, identifiers).sorted { ModelLoader.versionOrder($0.1, $1.1) }.map(\.0)
            orderSource = .versionIdentifiers
        } else {
            ordered = models.sorted { ModelLoader.versionOrder($0.version.name, $1.version.name) }
            orderSource = .folderNames
        }
        versions = ordered
        // The loader marks the current version; every other was loaded as `.otherVersion`.
        currentIndex = ordered.firstIndex { $0.version.isCurrent } ?? ordered.count - 1
    }

    /// Each model's `userDefinedModelVersionIdentifier` when every model sets a distinct one.
    private static func distinctIdentifiers(_ models: [Model]) -> [String]? {
        let identifiers = models.compactMap { model -> String? in
            guard let identifier = model.userDefinedModelVersionIdentifier?.trimmingCharacters(in: .whitespaces),
                  !identifier.isEmpty else { return nil }
            return identifier
        }
        guard identifiers.count == models.count, Set(identifiers).count == identifiers.count else { return nil }
        return identifiers
    }

    /// The versions before the current one in version order, oldest first: the ones stores can
    /// be migrated from. A version ordered after the current one has not been current yet (a
    /// draft, or the target of a manual migration, as in test bundles), so no store it wrote
    /// is migrated to the current version; comparing it would only report a downgrade.
    public var earlier: [Model] { Array(versions[..<currentIndex]) }

    /// The versions a migration check compares with the current one: the previous one, or
    /// every earlier one.
    public func migrationSources(allEarlier: Bool) -> [Model] {
        allEarlier ? earlier : (previous.map { [$0] } ?? [])
    }
}

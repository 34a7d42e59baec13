import DataModel
import VersionHashes

/// The version hashes of every readable version of a bundle, and which versions Core Data
/// cannot tell apart (equal digests: a store written by one opens with the other as it is).
/// `momlint versions` shows them; `store check` matches a store's hashes against them.
public struct BundleVersionHashes: Sendable {
    /// One per readable version, in the bundle's order.
    public var versions: [(name: String, hashes: ModelVersionHashes)]

    public init(_ bundle: BundleVersions) {
        versions = bundle.order.compactMap { version in
            version.model.map { (version.name, VersionHasher.hashes(of: $0)) }
        }
    }

    public func hashes(ofVersion name: String) -> ModelVersionHashes? {
        versions.first { $0.name == name }?.hashes
    }

    /// Groups of two or more versions with the same digest, each in the bundle's order.
    public var identicalGroups: [[String]] { ModelVersionHashes.identicalGroups(versions) }

    /// The other versions with the same digest as `name`.
    public func versions(identicalTo name: String) -> [String] {
        identicalGroups.first { $0.contains(name) }?.filter { $0 != name } ?? []
    }
}

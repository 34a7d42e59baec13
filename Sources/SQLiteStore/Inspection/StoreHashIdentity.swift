import DataModel
import VersionHashes

/// A store's identity as Core Data decides it: the entity version hashes its metadata keeps
/// (`NSStoreModelVersionHashes` in `Z_METADATA.Z_PLIST`, entity name → 32 bytes), compared with
/// the hashes a model version computes (`VersionHasher`, docs/version-hashes.md). Core Data
/// opens a store with a model when every hash is equal, and migrates it from the bundled
/// version whose hashes equal the store's (`NSManagedObjectModel.isConfiguration(withName:
/// compatibleWithStoreMetadata:)`, `NSPersistentStoreCoordinator.metadataForPersistentStore`).
/// The names in the metadata are the model's: after a renaming migration `Z_PRIMARYKEY` may
/// keep an entity's old name, the metadata never does.
public enum StoreHashIdentity {
    /// One entity whose hash is not the same in the store and in a version.
    public struct EntityDifference: Sendable, Hashable, CustomStringConvertible {
        public var entity: String
        /// Nil: the store has no such entity.
        public var storeHash: VersionHash?
        /// Nil: the version has no such entity (or cannot hash it).
        public var versionHash: VersionHash?

        public var description: String {
            switch (storeHash, versionHash) {
            case (nil, _): "'\(PrintableText.bounded(entity))' is in the version, not in the store"
            case (_, nil): "'\(PrintableText.bounded(entity))' is in the store, not in the version"
            case let (stored?, computed?):
                "'\(PrintableText.bounded(entity))' hashes \(stored.short)… in the store, \(computed.short)… in the version"
            }
        }
    }

    /// The store's entity hashes, or nil when its metadata holds none momlint can use (a
    /// momlint store, or metadata without `NSStoreModelVersionHashes`).
    public static func storeHashes(of file: StoreFileDescription) -> [String: VersionHash]? {
        guard file.writer == .coreData, !file.versionHashes.isEmpty else { return nil }
        var result: [String: VersionHash] = [:]
        for (entity, hex) in file.versionHashes {
            guard let bytes = bytes(hex: hex), let hash = VersionHash(bytes: bytes) else { return nil }
            result[entity] = hash
        }
        return result
    }

    /// How the store's hashes differ from the version's; empty when Core Data would open the
    /// store with this version. A store of one configuration holds only that configuration's
    /// entities: it matches when they are exactly some configuration's members.
    public static func differences(store: [String: VersionHash], version model: Model,
                                   hashes: ModelVersionHashes) -> [EntityDifference] {
        let computed = hashes.entityHashesByName
        var scope = Set(model.entities.map(\.name))
        if Set(store.keys) != scope,
           let configuration = model.configurations.first(where: { Set($0.memberEntityNames) == Set(store.keys) }) {
            scope = Set(configuration.memberEntityNames)
        }
        var result: [EntityDifference] = []
        for name in scope.union(store.keys).sorted(by: VersionHasher.precedes) {
            let stored = store[name]
            let mine = scope.contains(name) ? computed[name] : nil
            if stored != mine || stored == nil {
                result.append(EntityDifference(entity: name, storeHash: stored, versionHash: mine))
            }
        }
        return result
    }

    /// True when the store's metadata names exactly the hashes `model` computes.
    public static func matches(_ file: StoreFileDescription, _ model: Model) -> Bool {
        guard let store = storeHashes(of: file) else { return false }
        return differences(store: store, version: model, hashes: VersionHasher.hashes(of: model)).isEmpty
    }

    private static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex)
        guard digits.count % 2 == 0, digits.allSatisfy({ $0.isASCII && $0.isHexDigit }) else { return nil }
        // Two ASCII hexadecimal digits always make one byte.
        return stride(from: 0, to: digits.count, by: 2).map { UInt8(digits[$0].hexDigitValue! << 4 | digits[$0 + 1].hexDigitValue!) }
    }
}

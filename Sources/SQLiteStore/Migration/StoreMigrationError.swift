import Conformance

/// Why a store saved with one model version could not be opened with another: Core Data's
/// error code and one line for people. The file is unchanged whenever this is thrown (a failed
/// migration rolls its transaction back).
public struct StoreMigrationError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// The store's model differs and no migration was asked for: 134100
        /// (`NSPersistentStoreIncompatibleVersionHashError`).
        case incompatibleVersionHash
        /// Lightweight migration cannot infer a mapping between the two versions: 134140
        /// (`NSMigrationMissingMappingModelError`).
        case missingMappingModel
        /// The migration itself failed, e.g. a row left without a value for a required
        /// attribute that has no default: 134110 (`NSMigrationError`).
        case migrationFailed
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// Core Data's code for the failure (docs/coredata-semantics.md §8).
    public var code: Int {
        switch kind {
        case .incompatibleVersionHash: CoreDataErrorCode.persistentStoreIncompatibleVersionHash
        case .missingMappingModel: CoreDataErrorCode.migrationMissingMappingModel
        case .migrationFailed: CoreDataErrorCode.migration
        }
    }

    public var description: String { message }
}

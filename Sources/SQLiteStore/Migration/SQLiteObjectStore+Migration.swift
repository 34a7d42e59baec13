import Conformance
import DataModel
import Foundation
import GRDB
import ModelDiff

extension SQLiteObjectStore {
    /// What `migrateStore` did to the file.
    public enum MigrationOutcome: String, Sendable, Hashable {
        /// The file already had the destination's layout: nothing was written.
        case unchanged
        /// The file was migrated in place, in one transaction.
        case migrated
    }

    /// Migrates the store at `path`, saved with the model version `source`, in place so that
    /// `destination` opens it — Core Data's lightweight migration with an inferred mapping,
    /// "solely by issuing SQL statements" (docs/coredata-semantics.md §8; docs/sqlite-store.md,
    /// "Migration"). Every statement runs in one `BEGIN IMMEDIATE` transaction: a crash or a
    /// failure leaves the file as it was, never half migrated.
    ///
    /// With `migration: .none`, as Core Data without `NSMigratePersistentStoresAutomaticallyOption`,
    /// a store whose version hashes differ from `destination`'s is refused (134100); one that
    /// differs only in what no hash covers (an index) has its layout brought up to date.
    ///
    /// Throws `StoreMigrationError` with Core Data's code when the hashes differ and no
    /// migration was asked for (134100), lightweight migration cannot infer a mapping (134140)
    /// or the migration fails (134110: a required attribute without a default left without a
    /// value); `SQLiteStoreError` when the file is not a store of
    /// `source`, or is a store Core Data wrote and `access` is not
    /// `.readWriteIncludingCoreDataStores` (momlint writes to a file it did not create only when
    /// asked), or `access` is `.readOnly`. The file is unchanged whenever it throws.
    @discardableResult
    public static func migrateStore(at path: String, from source: Model, to destination: Model,
                                    migration: MigrationMode = .lightweight,
                                    access: Access = .readWrite) throws -> MigrationOutcome {
        let sourceSchema = try StoreSchema(model: source)
        let destinationSchema = try StoreSchema(model: destination)
        guard case .sqlite(let header) = try SQLiteFileHeader.inspect(path) else {
            throw SQLiteStoreError(.incompatibleFile, "'\(path)' does not exist or is empty; there is no store to migrate")
        }
        // Recognised through a view that cannot write, as `init(path:model:access:)` does.
        let description = try { () throws -> StoreFileDescription in
            let snapshot = try StoreSnapshot(of: path, header: header)
            return try describing(path: path) {
                try snapshot.queue.inDatabase { db in try StoreFileDescription.read(db, path: path, isWAL: header.isWAL, countingRows: false) }
            }
        }()
        let inferred = Result { () throws(MappingInferenceError) in try InferredMapping(from: source, to: destination) }
        if migration == .none, (try? inferred.get())?.needsMigration ?? true {
            throw StoreMigrationError(.incompatibleVersionHash,
                                      "'\(path)' was saved with '\(source.version.name)', whose version hashes differ from '\(destination.version.name)', and no migration was asked for; open it with lightweight migration or with the version that wrote it")
        }
        let mapping: InferredMapping
        do {
            mapping = try inferred.get()
        } catch {
            throw StoreMigrationError(.missingMappingModel, error.description)
        }
        // The layout may stay the same while a version hash changes (an attribute made
        // required): then the rows are still checked and filled.
        if description.writer == .momlint, description.momlintFingerprint == destinationSchema.fingerprint,
           !mapping.needsMigration {
            return .unchanged
        }
        guard access != .readOnly else {
            throw SQLiteStoreError(.invalidRequest,
                                   "'\(path)' cannot be migrated read-only: migrating rewrites the file; open it with access .readWrite")
        }
        if description.writer == .coreData, access != .readWriteIncludingCoreDataStores {
            throw SQLiteStoreError(.incompatibleFile,
                                   "'\(path)' is \(description.summary); momlint migrates a store it did not create only when asked: pass access .readWriteIncludingCoreDataStores")
        }
        try StoreMetadata.verify(sourceSchema, against: description, access: access)
        let plan = try MigrationPlan(source: sourceSchema, destination: destinationSchema, mapping: mapping,
                                     destinationModel: destination, file: description)
        try describing(path: path) {
            // The file's own journal mode is kept, as when a store is opened for writing.
            let queue = try DatabaseQueue(path: path)
            defer { try? queue.close() }
            try queue.inDatabase { db in
                try db.inTransaction(.immediate) {
                    try plan.run(db)
                    return .commit
                }
            }
        }
        return .migrated
    }

    private static func describing<T>(path: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as StoreMigrationError {
            throw error
        } catch {
            throw SQLiteStoreError.describing(error, path: path)
        }
    }
}

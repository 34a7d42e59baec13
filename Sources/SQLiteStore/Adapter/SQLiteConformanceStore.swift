import Conformance
import DataModel
import Foundation
import ModelDiff
import SafeFiles

/// One scenario's store: an `SQLiteObjectStore` plus the scenario's names for its objects
/// (contract §3). Names map to object IDs, which are primary keys and so survive saves and
/// reopens; after a reset or reopen the names of objects that are gone no longer reach them,
/// because a never-saved object's key may be handed out again.
public final class SQLiteConformanceStore: ConformanceStore {
    private var store: SQLiteObjectStore
    /// The model version the store is open with (another after a migrating `reopen`).
    private var model: Model
    private let reopensAfterEachSave: Bool
    private let scratchDirectory: URL?
    private var objectsByName: [String: ObjectID] = [:]
    private var namesByObject: [ObjectID: String] = [:]
    /// The contexts a scenario added on the store (contract §4.10), by name: each a store of its
    /// own on the same file, through a connection of its own, as a second context on a
    /// coordinator reads and writes the same SQLite file. `store` is the default context.
    private var contexts: [String: SQLiteObjectStore] = [:]
    /// The child contexts (contract §4.10), by name: each a store on a scratch file holding
    /// what its parent sees, written again before each request to the child
    /// (`SQLiteObjectStore.writeView`), so that the child reads through its parent.
    private var children: [String: ChildContext] = [:]
    /// Where the child contexts' scratch files live: a folder momlint makes beside the store at
    /// the first child, from which it removes exactly those files, then the folder itself
    /// (`PrivateFolder`; `docs/security.md`, "What momlint writes").
    private var childFolder: PrivateFolder?
    /// Reopened with `NSReadOnlyPersistentStoreOption` (contract §4.12): the adapter refuses a
    /// save with changes with 513, as the coordinator does, and never writes.
    private var isReadOnly = false

    /// Opens (creating if needed) the database at `path`. When `removesDirectoryOnClose` is
    /// given, `close()` deletes that directory.
    public init(path: String, setup: StoreSetup, reopensAfterEachSave: Bool = false,
                removesDirectoryOnClose scratchDirectory: URL? = nil) throws {
        model = setup.model
        self.reopensAfterEachSave = reopensAfterEachSave
        self.scratchDirectory = scratchDirectory
        store = try Self.adapting { try SQLiteObjectStore(path: path, model: setup.model) }
    }

    public func perform(_ request: StoreRequest) throws -> StoreResponse {
        try Self.adapting {
            switch request {
            case .addContext(let name, let parent):
                guard name != ContextDeclaration.defaultName, contexts[name] == nil, children[name] == nil else {
                    throw StoreAdapterError(.invalidRequest, "a context named '\(name)' already exists")
                }
                if let parent {
                    try addChild(name, parent: parent)
                    return .done
                }
                contexts[name] = try SQLiteObjectStore(path: store.path, model: model)
                if !children.isEmpty { contexts[name]!.allowsSetDeletion = false }
                for context in [store] + contexts.values { context.detectsConflicts = true }
                return .done
            case .inContext(let name, let inner):
                guard name != ContextDeclaration.defaultName else { return try answer(inner, in: nil) }
                if children[name] != nil { try readThroughParent(name) }
                guard contexts[name] != nil || children[name] != nil else {
                    throw StoreAdapterError(.invalidRequest, "no context named '\(name)'")
                }
                return try answer(inner, in: name)
            default:
                return try answer(request, in: nil)
            }
        }
    }

    public func close() {
        try? store.close()
        for context in contexts.values { try? context.close() }
        for child in children.values { try? child.store.close() }
        childFolder?.remove(withFiles: children.values.flatMap { StoreSidecarFiles.databaseFiles($0.fileName) })
        childFolder = nil
        if let scratchDirectory { try? FileManager.default.removeItem(at: scratchDirectory) }
    }

    /// The store of a context (nil: the default one), its primary-key counters brought up to
    /// the highest any context handed out, so that two contexts never give one key to two objects.
    private func store(of context: String?) -> SQLiteObjectStore {
        let target = self.store(named: context)
        guard !contexts.isEmpty || !children.isEmpty else { return target }
        for other in allStores where other !== target {
            target.context.highestPrimaryKeys = zip(target.context.highestPrimaryKeys, other.context.highestPrimaryKeys).map(max)
        }
        return target
    }

    private func answer(_ request: StoreRequest, in contextName: String?) throws -> StoreResponse {
        let store = store(of: contextName)
        switch request {
        case .insert(let entity, let name, let values):
            if let existing = objectsByName[name], try store.exists(existing) {
                throw StoreAdapterError(.invalidRequest, "the name '\(name)' is already used by a live object")
            }
            let id = try store.insert(entity, values: values)
            objectsByName[name] = id
            namesByObject[id] = name
            return .done
        case .set(let name, let attribute, let value):
            try store.set(attribute, of: try object(name), to: value)
            return .done
        case .link(let name, let relationship, let destination):
            try store.link(try object(name), relationship, to: try object(destination))
            return .done
        case .unlink(let name, let relationship, let destination):
            try store.unlink(try object(name), relationship, from: try object(destination))
            return .done
        case .delete(let name):
            try store.delete(try object(name))
            return .done
        case .save(let policy):
            let child = contextName.flatMap { children[$0] }
            if child == nil && isReadOnly && store.hasChanges {
                return .saveFailed(SaveFailure(code: CoreDataErrorCode.fileWriteNoPermission))
            }
            // A child's save is validated against what the child sees, then goes to the
            // parent's pending changes.
            let push = child.map { (parent: $0.parent, context: store.context) }
            do {
                try store.save(mergePolicy: policy)
            } catch let refused as SaveFailedError {
                return .saveFailed(saveFailure(refused.failure))
            }
            if let push {
                try self.store(named: push.parent).receive(push.context)
            } else if reopensAfterEachSave {
                // The context keeps its transient values across the save (contract §4.11);
                // reading everything else back from the file is the point of reopening.
                try reopen(contextName, keepingTransients: true)
            }
            return .saved
        case .reset:
            store.reset()
            try forgetGoneObjects()
            return .done
        case .reopen:
            try reopenEveryContext(readOnly: false)
            return .done
        case .reopenWithOptions(let options):
            try reopenEveryContext(readOnly: options.readOnly)
            return .done
        case .exists(let name):
            guard let id = objectsByName[name] else { return .exists(false) }
            return .exists(try store.exists(id))
        case .value(let name, let attribute):
            return .value(try store.value(attribute, of: try object(name)))
        case .related(let name, let relationship):
            return .objects(try store.related(try object(name), relationship).map { id in
                try scenarioName(of: id, "in '\(name).\(relationship)'")
            })
        case .count(let entity):
            return .count(try store.count(entity))
        case .refresh(let name, let mergeChanges):
            try store.refresh(try object(name), mergeChanges: mergeChanges)
            return .done
        case .refreshAll:
            try store.refreshAll()
            return .done
        case .validate(let name, let attribute, let value):
            let failures = try store.validate(value, for: attribute, of: try object(name)).map(saveFailure)
            return SaveFailure.combining(failures).map(StoreResponse.invalid) ?? .valid
        case .changes:
            let sets = try store.changeSets()
            return .changes(ContextChanges(hasChanges: store.hasChanges, inserted: sets.inserted.compactMap { namesByObject[$0] },
                                           updated: sets.updated.compactMap { namesByObject[$0] },
                                           deleted: sets.deleted.compactMap { namesByObject[$0] }))
        case .isDeleted(let name):
            guard let id = objectsByName[name] else { return .isDeleted(false) }
            return .isDeleted(try store.isDeleted(id))
        case .fetch(let request):
            return .objects(try store.execute(request) { namesByObject[$0] }.map { id in
                try scenarioName(of: id, "fetched from '\(request.entity)'")
            })
        case .addContext, .inContext:
            throw StoreAdapterError(.invalidRequest, "a context request cannot be nested in another; name the context once")
        }
    }

    /// Reads the rows in the file, as a second context on the same coordinator would: the
    /// saved state, with pending changes left pending.
    public func performOnSavedState(_ query: StoreRequest) throws -> StoreResponse {
        try Self.adapting {
            switch query {
            case .exists(let name):
                guard let id = objectsByName[name] else { return .exists(false) }
                return .exists(try store.savedExists(id))
            case .value(let name, let attribute):
                return .value(try store.savedValue(attribute, of: try object(name)))
            case .related(let name, let relationship):
                return .objects(try store.savedRelated(try object(name), relationship).map { id in
                    try scenarioName(of: id, "in the saved '\(name).\(relationship)'")
                })
            case .count(let entity):
                return .count(try store.savedCount(entity))
            default:
                throw StoreAdapterError(.invalidRequest, "only a query (exists, value, related, count) reads the saved state")
            }
        }
    }

    /// Closes the store and opens its saved data with another model version (contract 1.3):
    /// with `.none`, data saved under different version hashes fail with 134100; with
    /// `.lightweight`, the file is migrated in place (`SQLiteObjectStore.migrateStore`, one
    /// transaction). On failure the file is unchanged and the store reopens with its old model.
    public func reopen(with newModel: Model, modelPath: String, migration: MigrationMode) throws -> StoreResponse {
        try Self.adapting {
            let path = store.path
            store.reset()
            // Objects keep their primary keys; their tables may be renumbered, so each name
            // remembers its object's entity to find the object again.
            var entities: [String: String] = [:]
            for (name, id) in objectsByName where try store.exists(id) {
                entities[name] = try store.entityName(of: id)
            }
            try store.close()
            let failure: StoreMigrationError?
            do {
                try SQLiteObjectStore.migrateStore(at: path, from: model, to: newModel, migration: migration)
                failure = nil
            } catch let error as StoreMigrationError {
                failure = error
            } catch {
                // Not a migration failure (the file is not this model's store, SQLite failed):
                // the store stays open with the model it had, and the error is reported.
                store = try SQLiteObjectStore(path: path, model: model)
                throw error
            }
            if let failure {
                store = try SQLiteObjectStore(path: path, model: model)
                return .openFailed(OpenFailure(code: failure.code, message: failure.message))
            }
            let mapping = try InferredMapping(from: model, to: newModel)
            store = try SQLiteObjectStore(path: path, model: newModel)
            model = newModel
            var renamed: [String: ObjectID] = [:]
            for (name, entityName) in entities {
                guard let id = objectsByName[name],
                      let target = mapping.entities.first(where: { $0.sourceEntity == entityName }),
                      let entity = store.schema.entity(named: target.destinationEntity)
                else { continue }
                renamed[name] = ObjectID(table: entity.tableIndex, primaryKey: id.primaryKey)
            }
            objectsByName = renamed
            namesByObject = Dictionary(renamed.map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
            try rebuildChildren()
            try forgetGoneObjects()
            return .done
        }
    }

    private func object(_ name: String) throws -> ObjectID {
        guard let id = objectsByName[name] else {
            throw StoreAdapterError(.noSuchObject, "no object is named '\(name)'")
        }
        return id
    }

    /// The name of an object the store answered with (`place` says where it was found).
    private func scenarioName(of id: ObjectID, _ place: String) throws -> String {
        guard let name = namesByObject[id] else {
            throw StoreAdapterError(.storeFailure, "object \(id) \(place) has no scenario name")
        }
        return name
    }

    /// Closes one context's connection and opens it again (the default context's for nil).
    private func reopen(_ contextName: String? = nil, keepingTransients: Bool = false) throws {
        let old = contextName.flatMap { contexts[$0] } ?? store
        let transients = old.context.keptTransients
        // After a save the context still holds what it saved (contract §4.10); read back from
        // the file right away, those objects are what it saved, at the versions it wrote.
        let held = keepingTransients && !contexts.isEmpty ? old.context.objects.filter(\.value.isLive).keys.sorted() : []
        try old.close()
        let reopened = try SQLiteObjectStore(path: old.path, model: model)
        reopened.detectsConflicts = !contexts.isEmpty
        if !children.isEmpty { reopened.allowsSetDeletion = false }
        if keepingTransients { reopened.context.keptTransients = transients }
        for id in held { _ = try reopened.exists(id) }
        if let contextName { contexts[contextName] = reopened } else { store = reopened }
        try forgetGoneObjects()
    }

    private func reopenEveryContext(readOnly: Bool) throws {
        isReadOnly = readOnly
        try reopen()
        for name in contexts.keys.sorted() { try reopen(name) }
        try rebuildChildren()
    }

    /// A context that reads through another (contract §4.10); `parent` is the default
    /// context's name, a context on the store or another child.
    private struct ChildContext {
        let parent: String?
        /// Its scratch database's name in `childFolder`.
        let fileName: String
        var store: SQLiteObjectStore
    }

    /// The store of a context by name (nil or the default name: the default context).
    private func store(named name: String?) -> SQLiteObjectStore {
        guard let name, name != ContextDeclaration.defaultName else { return store }
        return contexts[name] ?? children[name]?.store ?? store
    }

    private var allStores: [SQLiteObjectStore] {
        [store] + contexts.values + children.values.map(\.store)
    }

    private func addChild(_ name: String, parent: String) throws {
        let parentName: String? = parent == ContextDeclaration.defaultName ? nil : parent
        if let parentName, contexts[parentName] == nil, children[parentName] == nil {
            throw StoreAdapterError(.invalidRequest, "context '\(name)' names '\(parent)' as its parent, and there is no such context")
        }
        // A set deletion keeps its keys in its own connection, which a child cannot read through.
        for context in allStores { context.allowsSetDeletion = false }
        if let parentName, children[parentName] != nil { try readThroughParent(parentName) }
        let fileName = "context-\(UUID().uuidString).sqlite"
        children[name] = ChildContext(parent: parentName, fileName: fileName, store: try openView(of: parentName, named: fileName))
    }

    /// Writes the file a child reads through — what its parent sees now — and opens it.
    private func openView(of parent: String?, named fileName: String) throws -> SQLiteObjectStore {
        let folder = try openChildFolder()
        let files = StoreSidecarFiles.databaseFiles(fileName)
        folder.removeFiles(named: files)
        let path = folder.path(of: fileName)
        do {
            try store(named: parent).writeView(to: path, model: model)
            let view = try SQLiteObjectStore(path: path, model: model)
            view.allowsSetDeletion = false
            return view
        } catch {
            folder.removeFiles(named: files)
            throw error
        }
    }

    /// Before a request to a child: its file is written again from its parent (and the
    /// parent's from its own, up to a context on the store), and its own context kept, so it
    /// holds what it read and reads everything else through its parent as the parent is now.
    private func readThroughParent(_ name: String) throws {
        guard var child = children[name] else { return }
        if let parent = child.parent, children[parent] != nil { try readThroughParent(parent) }
        let held = child.store.context
        try child.store.close()
        child.store = try openView(of: child.parent, named: child.fileName)
        child.store.context = held
        children[name] = child
    }

    /// After a reopen or a migration: every child starts again from its parent, with nothing
    /// pending, as every other context does.
    private func rebuildChildren() throws {
        var done: Set<String> = []
        func rebuild(_ name: String) throws {
            guard !done.contains(name), var child = children[name] else { return }
            if let parent = child.parent { try rebuild(parent) }
            try child.store.close()
            child.store = try openView(of: child.parent, named: child.fileName)
            children[name] = child
            done.insert(name)
        }
        for name in children.keys.sorted() { try rebuild(name) }
        if !children.isEmpty {
            for context in allStores { context.allowsSetDeletion = false }
            try forgetGoneObjects()
        }
    }

    /// The children's folder, made beside the store at the first child.
    private func openChildFolder() throws -> PrivateFolder {
        if let childFolder { return childFolder }
        let directory = URL(fileURLWithPath: store.path).deletingLastPathComponent().path
        do {
            let folder = try PrivateFolder(in: directory, prefix: "momlint-contexts-")
            childFolder = folder
            return folder
        } catch {
            throw StoreAdapterError(.storeFailure, "cannot make a private folder for child contexts beside '\(store.path)': \(error.reason)")
        }
    }

    /// Names of objects that are gone stop reaching them. Their IDs keep their names, so a No
    /// Action reference left in the file still reads as the deleted object's name; a new
    /// object given the same key takes the name over at insert.
    private func forgetGoneObjects() throws {
        // Asked without reading the objects in: a context reads an object only when a request
        // names it (contract §4.10).
        for (name, id) in objectsByName where try !allStores.contains(where: { try $0.holdsOrStores(id) }) {
            objectsByName[name] = nil
        }
    }

    private func saveFailure(_ failure: ValidationFailure) -> SaveFailure {
        SaveFailure(code: failure.code, object: failure.object.flatMap { namesByObject[$0] }, key: failure.key,
                    details: failure.details.map(saveFailure), value: failure.value,
                    objects: failure.objects.map { $0.compactMap { namesByObject[$0] } })
    }

    /// Runs `body`, turning the store's errors into the contract's (§6).
    private static func adapting<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as SQLiteStoreError {
            let kind: StoreAdapterError.Kind = switch error.kind {
            case .noSuchObject: .noSuchObject
            case .noSuchProperty: .noSuchProperty
            case .invalidRequest: .invalidRequest
            case .unsupportedModel: .unsupported
            case .incompatibleFile, .unreadableValue, .database: .storeFailure
            }
            throw StoreAdapterError(kind, error.message)
        }
    }
}

import Conformance
import DataModel
import GRDB

/// Child contexts (contract §4.10). A child context reads through its parent — the parent's
/// pending changes included — and its save goes to the parent: validated like any save, then
/// applied as the parent's pending changes, never written to the store until the parent saves
/// (Apple, `NSManagedObjectContext.parent`: a child's save pushes its changes "one store up").
///
/// A child context is an `SQLiteObjectStore` of its own on a scratch file that holds what its
/// parent sees: the parent's file (copied with SQLite's online backup, WAL content included)
/// with the parent's pending changes written over it. The adapter writes that file again before
/// each request to the child, keeping the child's own context, so that the child reads objects
/// it holds as it read them (until it refreshes them) and every other object as its parent
/// sees it now.
extension SQLiteObjectStore {
    /// Writes what a context reading through this one sees to a new database at `path`: the
    /// saved rows with this context's pending changes written over them, unvalidated (they are
    /// this context's to validate at its own save). This store's file and pending changes are
    /// left as they are.
    func writeView(to path: String, model: Model) throws {
        guard context.setDeletedTables.isEmpty else {
            // The keys of a set deletion live in this connection's temporary table.
            throw SQLiteStoreError(.invalidRequest, "a context with a set deletion pending cannot be read through; "
                + "turn set deletion off (allowsSetDeletion) in a store with child contexts")
        }
        let destination = try DatabaseQueue(path: path)
        do {
            try inDatabase { db in try destination.inDatabase { target in try db.backup(to: target) } }
            try destination.close()
        } catch {
            try? destination.close()
            throw error
        }
        let view = try SQLiteObjectStore(path: path, model: model)
        defer { try? view.close() }
        guard context.hasChanges else { return }
        let pending = context
        try view.inDatabase { db in
            try db.inTransaction(.immediate) {
                try SaveWriter(context: pending, db: db).write()
                return .commit
            }
        }
    }

    /// A child context's save, received: `child` is the child's context as its save validated
    /// it. Objects it inserted are inserted here under the same IDs, the attributes and
    /// relationships it changed are set here (inverses following, as for any change), objects
    /// it deleted are deleted here (the delete rules running here), and all of it is pending
    /// until this context saves. A value the child left as it read it is not set, so a change
    /// this context made meanwhile stands.
    func receive(_ child: ObjectContext) throws {
        try changing { db in
            for id in child.insertionOrder {
                guard let state = child.objects[id], state.isInserted, !state.isDeleted, try context.state(id, db) == nil
                else { continue }
                context.adopt(id, entity: schema.entities[state.entity], attributes: state.attributes)
            }
            let ids = child.objects.keys.sorted()
            for id in ids {
                guard let state = child.objects[id], state.isLive, try context.isLive(id, db) else { continue }
                for slot in state.attributes.indices
                where (state.isInserted || state.attributes[slot] != state.savedAttributes[slot])
                    && context.objects[id]!.attributes[slot] != state.attributes[slot] {
                    context.setAttribute(id, slot: slot, to: state.attributes[slot])
                }
            }
            for id in ids {
                guard let state = child.objects[id], state.isLive, try context.isLive(id, db) else { continue }
                for (index, destination) in state.toOnes.enumerated() {
                    let read = state.savedToOnes.indices.contains(index) ? state.savedToOnes[index] : nil
                    guard destination != read else { continue }
                    if let destination {
                        if try context.isLive(destination, db) { try context.link(id, .toOne(index), to: destination, db) }
                    } else if let current = context.objects[id]!.toOnes[index] {
                        try context.unlink(id, .toOne(index), from: current, db)
                    }
                }
                for (index, members) in state.toManys.enumerated() {
                    guard let members else { continue }  // never loaded in the child: unchanged there
                    for member in members.saved where !members.current.contains(member) {
                        try context.unlink(id, .toMany(index), from: member, db)
                    }
                    for member in members.current where !members.saved.contains(member) {
                        if try context.isLive(member, db) { try context.link(id, .toMany(index), to: member, db) }
                    }
                }
            }
            for id in ids {
                guard let state = child.objects[id], state.isDeleted, !state.isInserted, try context.isLive(id, db) else { continue }
                try context.delete(id, db)
            }
        }
    }
}

extension ObjectContext {
    /// Registers an inserted object under `id`: a new one (`insert`), or one another context
    /// inserted, under the ID it was given there (a child context's save). Keys stay unique:
    /// every context of a scenario takes the highest key any of them handed out, and this one's
    /// counter moves past the adopted key.
    mutating func adopt(_ id: ObjectID, entity: EntityMapping, attributes: [AttributeValue]) {
        highestPrimaryKeys[id.table] = max(highestPrimaryKeys[id.table], id.primaryKey)
        objects[id] = ObjectState(entity: entity.index, attributes: attributes,
                                  toOnes: Array(repeating: nil, count: entity.toOnes.count),
                                  toManys: Array(repeating: ToManyState(saved: [], current: []), count: entity.toManys.count),
                                  isInserted: true, isDeleted: false)
        insertionOrder.append(id)
    }
}

import Conformance
import GRDB

/// Refreshing objects, transient values across saves, and the context's change tracking
/// (contract 1.4, §4.11).
extension ObjectContext {
    /// The transient values to keep after this context's save: every live object's transient
    /// attributes that differ from their defaults, and those kept before for objects this
    /// save did not read.
    func transientValuesToKeep() -> [ObjectID: [Int: AttributeValue]] {
        var kept = keptTransients
        for (id, state) in objects {
            kept[id] = nil
            guard state.isLive else { continue }
            var values: [Int: AttributeValue] = [:]
            for (slot, attribute) in schema.entities[state.entity].attributes.enumerated()
            where attribute.attribute.isTransient && state.attributes[slot] != attribute.defaultValue {
                values[slot] = state.attributes[slot]
            }
            if !values.isEmpty { kept[id] = values }
        }
        return kept
    }

    /// With other contexts on the file: the objects `working` held when it saved stay held,
    /// clean, at the row version the save wrote, as a context keeps its registered objects
    /// after a save. Without them nothing needs keeping: no one else writes the file.
    mutating func keepSaved(_ working: ObjectContext) {
        for (id, state) in working.objects where state.isLive {
            var clean = state
            if state.isInserted {
                clean.readVersion = 1
            } else if state.isChanged {
                clean.readVersion = (state.readVersion ?? 0) + 1
            }
            clean.isInserted = false
            clean.isChanged = false
            clean.savedAttributes = state.attributes
            clean.savedToOnes = state.toOnes
            clean.toManys = Array(repeating: nil, count: state.toManys.count)
            objects[id] = clean
        }
    }

    /// `refresh(_:mergeChanges:)`: the object read again from the file; with `mergeChanges`
    /// the attributes and relationships it changed keep their pending values, without it every
    /// pending change of it is lost. Transient values go back to their defaults unless pending.
    /// An inserted object has no row to read and is left as it is.
    mutating func refresh(_ id: ObjectID, mergingChanges: Bool, _ db: Database) throws {
        guard let current = objects[id] else {
            // Not read since the last save: a fault already, which keeps no transient values.
            keptTransients[id] = nil
            return
        }
        guard !current.isInserted else { return }
        keptTransients[id] = nil
        objects[id] = nil
        guard var fresh = try state(id, db) else { return }
        if mergingChanges {
            var pending = current.isDeleted
            for slot in current.attributes.indices where current.attributes[slot] != current.savedAttributes[slot] {
                fresh.attributes[slot] = current.attributes[slot]
                pending = true
            }
            for slot in current.toOnes.indices where current.toOnes[slot] != current.savedToOnes[slot] {
                fresh.toOnes[slot] = current.toOnes[slot]
                pending = true
            }
            for slot in current.toManys.indices {
                if let members = current.toManys[slot], members.current != members.saved {
                    fresh.toManys[slot] = members
                    pending = true
                }
            }
            fresh.isDeleted = current.isDeleted
            fresh.isChanged = pending && current.isChanged
        }
        objects[id] = fresh
    }

    /// The objects inserted, changed and deleted since the last save: Core Data's
    /// `insertedObjects`, `updatedObjects` and `deletedObjects`. Objects a set-based cascade
    /// deleted are read from the connection's deleted set.
    mutating func changeSets(_ db: Database) throws -> (inserted: [ObjectID], updated: [ObjectID], deleted: [ObjectID]) {
        var inserted: [ObjectID] = [], updated: [ObjectID] = [], deleted: [ObjectID] = []
        for (id, state) in objects {
            switch (state.isInserted, state.isDeleted) {
            case (true, false): inserted.append(id)
            case (false, true): deleted.append(id)
            case (false, false) where state.isChanged: updated.append(id)
            default: break
            }
        }
        for table in setDeletedTables {
            let mapping = schema.tables[table]
            let sql = "SELECT \"Z_PK\" FROM \(mapping.name.quoted) WHERE \"Z_PK\" + \(Self.keyOffset(table)) IN \(Self.deletedKeys)"
            for key in try StoredInteger.fetchPrimaryKeys(db, sql: sql, arguments: [], table: mapping.name.name) {
                let id = ObjectID(table: table, primaryKey: key)
                if objects[id] == nil { deleted.append(id) }
            }
        }
        return (inserted.sorted(), updated.sorted(), deleted.sorted())
    }
}

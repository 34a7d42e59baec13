import DataModel
import GRDB

extension ObjectContext {
    /// Marks `id` deleted and runs the delete rules until nothing new is deleted (contract
    /// §4.2): Nullify takes the object out of each destination's inverse and empties its own
    /// relationship; Cascade does the same, then deletes every destination not yet deleted;
    /// Deny waits for the save; No Action touches neither side.
    ///
    /// Propagation is a work list, not recursion, so a cascade chain of any length runs in
    /// constant stack; an object reached twice is deleted once, so cycles terminate.
    ///
    /// A cascade over saved, unchanged objects runs as set operations in SQL instead
    /// (`deleteAsSet`), with the same outcome.
    mutating func delete(_ id: ObjectID, _ db: Database) throws {
        guard try isLive(id, db) else { return }
        if allowsSetDeletion, try deleteAsSet(id, db) { return }
        objects[id]!.isDeleted = true
        var pending = [id]
        var next = 0
        while next < pending.count {
            let source = pending[next]
            next += 1
            let entity = schema.entities[objects[source]!.entity]
            for (slot, relationship) in entity.relationshipSlots {
                let cascades: Bool
                switch relationship.relationship.deletionRule {
                case .noAction, .deny: continue
                case .cascade: cascades = true
                // An unknown spelling is read as Core Data's default, Nullify (coredata-semantics §1).
                case .nullify, .unknown: cascades = false
                }
                let destinations = try self.destinations(source, slot, db)
                for destination in destinations {
                    try detachInverse(relationship, of: source, from: destination, db)
                }
                clear(source, slot)
                guard cascades else { continue }
                for destination in destinations where try isLive(destination, db) {
                    objects[destination]!.isDeleted = true
                    pending.append(destination)
                }
            }
        }
    }
}

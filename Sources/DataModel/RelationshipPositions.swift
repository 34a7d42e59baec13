import Foundation

/// Where the model declares each of its relationships, found by the identity of the
/// relationship's storage: rules hold copies of the model's relationships, and a copy shares
/// its storage until it is changed. A model built by hand may hold one relationship value at
/// several positions; those share a storage, so identity cannot tell them apart and they get
/// no entry.
///
/// Made the first time a relationship is looked up, not with the other tables: a lint reaches
/// the model's own relationships through their positions and seldom asks, and a table of
/// every relationship cost the loader two insertions per relationship (one per part, one
/// when the parts were joined), the second on one core while the other waited.
///
/// Not `Equatable`, and not part of `ModelIndex` (whose equality compares values): it answers by
/// identity, so the same model read twice has two tables that answer differently. Each model
/// keeps it beside its index (`Model`'s storage), shared by the copies that share the index.
final class RelationshipPositions: @unchecked Sendable {
    // @unchecked: `table` is read and written only with `lock` held.
    private let lock = NSLock()
    private var table: [ObjectIdentifier: RelationshipPosition?]?

    /// Where `relationship` is declared in the model whose tables are `index`; nil when it is
    /// not one of them, or is held at more than one position.
    func position(of relationship: Relationship, in index: ModelIndex) -> RelationshipPosition? {
        table(for: index)[ObjectIdentifier(relationship.storage)] ?? nil
    }

    /// The whole table, made now if no one asked before.
    func table(for index: ModelIndex) -> [ObjectIdentifier: RelationshipPosition?] {
        lock.lock()
        defer { lock.unlock() }
        if let table { return table }
        var made: [ObjectIdentifier: RelationshipPosition?] = [:]
        made.reserveCapacity(index.relationships.count)
        for (entityIndex, slots) in index.slots.enumerated() {
            for relationshipIndex in 0..<slots.relationshipCount {
                let relationship = index.relationships[slots.firstRelationship + relationshipIndex]
                let identity = ObjectIdentifier(relationship.storage)
                let position = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                made[identity] = made[identity] == nil ? position : .some(nil)
            }
        }
        table = made
        return made
    }
}

/// Internal consistency checks, in the manner of swift-collections' `_checkInvariants()`.
/// `ReferenceStore` runs them after every request in debug builds and prints a replayable trace
/// when one fails; release builds never call them.
extension ObjectContext {
    /// The first broken invariant among all objects, or nil: see `invariantViolation(of:)`;
    /// the bookkeeping sets name only objects the graph holds; saved data points only at saved
    /// objects.
    func invariantViolation() -> String? {
        for id in graph.ids {
            if let violation = invariantViolation(of: id) { return violation }
        }
        for set in [inserted, deleted, changed] {
            for id in set where !graph.contains(id) { return "pending object \(id) is not in the graph" }
        }
        for id in saved.ids {
            let record = saved[id]!
            for destinations in record.relationships where !destinations.allSatisfy(saved.contains) {
                return "saved '\(record.name)' points at an object that is not saved"
            }
        }
        return nil
    }

    /// One object's broken invariant, or nil: its slots match its entity; a to-one holds at most
    /// one object; a to-many holds no duplicate; every destination is in the graph and of the
    /// right entity; between two live objects, a relationship with an inverse is mirrored by it.
    func invariantViolation(of id: ObjectID) -> String? {
        guard let record = graph[id] else { return nil }
        let entity = schema.entities[record.entity]
        guard record.attributes.count == entity.attributes.count,
              record.relationships.count == entity.relationships.count
        else { return "'\(record.name)' has slots that do not match '\(entity.name)'" }
        for (slot, relationship) in entity.relationships.enumerated() {
            let destinations = record.relationships[slot]
            let place = "'\(record.name).\(relationship.name)'"
            if !relationship.isToMany && destinations.count > 1 {
                return "\(place) is a to-one holding \(destinations.count) objects"
            }
            if Set(destinations).count != destinations.count { return "\(place) holds an object twice" }
            for destination in destinations {
                guard let target = graph[destination] else {
                    return "\(place) points at object \(destination), which is not in the graph"
                }
                if !schema.entity(target.entity, isKindOf: relationship.destination) {
                    return "\(place) holds '\(target.name)', a '\(schema.entities[target.entity].name)'"
                }
                if let inverseSlot = relationship.inverseSlot, isLive(id), isLive(destination),
                   !target.relationships[inverseSlot].contains(id) {
                    return "\(place) holds '\(target.name)', whose inverse does not hold '\(record.name)'"
                }
            }
        }
        return nil
    }
}

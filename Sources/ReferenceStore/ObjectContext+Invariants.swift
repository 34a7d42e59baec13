/// Internal consistency checks, in the manner of swift-collections' `_checkInvariants()`.
/// `ReferenceStore` runs them after every request in debug builds and prints a replayable trace
/// when one fails; release builds never call them.
///
/// Each check costs time linear in what it looks at, never more: CI runs the debug build, and a
/// scenario may build a graph of a million objects (a fan-out of 1,000 files once took 16 s here,
/// when checking that a file's folder holds the file scanned the folder's whole list each time).
extension ObjectContext {
    /// The first broken invariant among all objects, or nil: see `invariantViolation(of:)`;
    /// the bookkeeping sets name only objects the graph holds; saved data points only at saved
    /// objects. Linear in the size of the graph (objects plus relationship members).
    func invariantViolation() -> String? {
        let members = ToManyMembers(of: self)
        for id in graph.ids {
            if let violation = invariantViolation(of: id, members: members) { return violation }
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
    /// Linear in the object's relationships and in its destinations' inverses.
    func invariantViolation(of id: ObjectID) -> String? {
        invariantViolation(of: id, members: nil)
    }

    /// The broken invariant of one pair after a `link` or `unlink`, or nil: a to-one holds at
    /// most one object; if `id`'s relationship `slot` holds `member`, `member` is in the graph
    /// and of the right entity; and between two live objects, the inverse holds `id` exactly
    /// when `id` holds `member`. A link appends, so "holds" looks at a list's last member first:
    /// constant time for a link, so adding the 1,000th file to a folder does not read the other
    /// 999 again. Duplicates in a list are left to the whole-graph check at the next save.
    func invariantViolation(of id: ObjectID, slot: Int, member: ObjectID) -> String? {
        guard let record = graph[id] else { return nil }
        let relationship = schema.entities[record.entity].relationships[slot]
        let place = "'\(record.name).\(relationship.name)'"
        let destinations = record.relationships[slot]
        if !relationship.isToMany && destinations.count > 1 {
            return "\(place) is a to-one holding \(destinations.count) objects"
        }
        let holds = Self.list(destinations, holds: member)
        guard let target = graph[member] else {
            return holds ? "\(place) points at object \(member), which is not in the graph" : nil
        }
        if holds, !schema.entity(target.entity, isKindOf: relationship.destination) {
            return "\(place) holds '\(target.name)', a '\(schema.entities[target.entity].name)'"
        }
        guard let inverseSlot = relationship.inverseSlot, isLive(id), isLive(member),
              inverseSlot < target.relationships.count else { return nil }
        let mirrored = Self.list(target.relationships[inverseSlot], holds: id)
        if holds && !mirrored {
            return "\(place) holds '\(target.name)', whose inverse does not hold '\(record.name)'"
        }
        if !holds && mirrored {
            return "\(place) does not hold '\(target.name)', whose inverse still holds '\(record.name)'"
        }
        return nil
    }

    /// Whether `list` holds `id`, looking at its end first (where a link appends).
    private static func list(_ list: [ObjectID], holds id: ObjectID) -> Bool {
        list.last == id || list.contains(id)
    }

    /// `invariantViolation(of:)`, answering "does this to-many hold that object?" from `members`
    /// when given (one hash lookup) instead of by scanning the list.
    private func invariantViolation(of id: ObjectID, members: ToManyMembers?) -> String? {
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
            if destinations.count > 1 && Set(destinations).count != destinations.count {
                return "\(place) holds an object twice"
            }
            for destination in destinations {
                guard let target = graph[destination] else {
                    return "\(place) points at object \(destination), which is not in the graph"
                }
                if !schema.entity(target.entity, isKindOf: relationship.destination) {
                    return "\(place) holds '\(target.name)', a '\(schema.entities[target.entity].name)'"
                }
                guard let inverseSlot = relationship.inverseSlot, isLive(id), isLive(destination) else { continue }
                let inverse = target.relationships[inverseSlot]
                let mirrored = inverse.count <= 1 || members == nil
                    ? inverse.contains(id)
                    : members!.contains(id, in: destination, slot: inverseSlot)
                if !mirrored {
                    return "\(place) holds '\(target.name)', whose inverse does not hold '\(record.name)'"
                }
            }
        }
        return nil
    }
}

/// Every member of every to-many relationship in a graph, for membership in one lookup: a
/// folder's list of 1,000 files is read once per whole-graph check, not once per file.
private struct ToManyMembers {
    private struct Entry: Hashable {
        var owner: ObjectID
        var slot: Int
        var member: ObjectID
    }

    private var entries: Set<Entry> = []

    init(of context: ObjectContext) {
        for id in context.graph.ids {
            for (slot, destinations) in context.graph[id]!.relationships.enumerated() where destinations.count > 1 {
                for member in destinations { entries.insert(Entry(owner: id, slot: slot, member: member)) }
            }
        }
    }

    func contains(_ member: ObjectID, in owner: ObjectID, slot: Int) -> Bool {
        entries.contains(Entry(owner: owner, slot: slot, member: member))
    }
}

import Conformance

/// An object's identity inside the reference store: a primary key, counted from 0 in order of
/// insertion and never reused (a discarded insert leaves a gap).
typealias ObjectID = Int

/// One object: its entity, the name the scenario gave it, and its properties by slot.
struct ObjectRecord: Equatable {
    var entity: Int
    var name: String
    var attributes: [AttributeValue]
    /// Per relationship slot, the destinations: at most one for a to-one, in order for a to-many.
    var relationships: [[ObjectID]]
}

/// A set of objects addressed by ID — the saved data, or the working state with pending changes.
///
/// Records live in an array indexed by ID (IDs are dense), so lookups cost no hashing; an ID
/// with no record there is an object this graph does not hold.
struct ObjectGraph: Equatable {
    private(set) var records: [ObjectRecord?] = []
    private(set) var count = 0

    subscript(id: ObjectID) -> ObjectRecord? {
        get { id >= 0 && id < records.count ? records[id] : nil }
    }

    func contains(_ id: ObjectID) -> Bool { self[id] != nil }

    /// Every ID this graph holds, in increasing order.
    var ids: some Sequence<ObjectID> {
        records.indices.lazy.filter { records[$0] != nil }
    }

    mutating func add(_ record: ObjectRecord, as id: ObjectID) {
        precondition(id >= 0 && !contains(id), "object \(id) is already in the graph")
        if id >= records.count { records.append(contentsOf: repeatElement(nil, count: id - records.count + 1)) }
        records[id] = record
        count += 1
    }

    mutating func remove(_ id: ObjectID) {
        guard contains(id) else { return }
        records[id] = nil
        count -= 1
    }

    /// Puts `record` at `id`, replacing what was there.
    mutating func replace(_ id: ObjectID, with record: ObjectRecord) {
        if contains(id) { records[id] = record } else { add(record, as: id) }
    }

    /// Changes one record in place (without copying its arrays).
    mutating func modify<T>(_ id: ObjectID, _ body: (inout ObjectRecord) throws -> T) rethrows -> T {
        precondition(contains(id), "object \(id) is not in the graph")
        return try body(&records[id]!)
    }
}

/// A set of object IDs stored as one flag per ID.
///
/// IDs are dense, so a flag array beats a hash set: membership is an index, iteration comes out
/// in ID order (the order validation reports in) without sorting, and the cost stays low even in
/// debug builds, where the reference store deletes a million-object chain in a test.
struct ObjectSet: Sequence, Equatable {
    private var flags: [Bool] = []
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    func contains(_ id: ObjectID) -> Bool {
        id >= 0 && id < flags.count && flags[id]
    }

    @discardableResult
    mutating func insert(_ id: ObjectID) -> (inserted: Bool, memberAfterInsert: ObjectID) {
        if id >= flags.count { flags.append(contentsOf: repeatElement(false, count: id - flags.count + 1)) }
        guard !flags[id] else { return (false, id) }
        flags[id] = true
        count += 1
        return (true, id)
    }

    /// Adds the members of `others`, in place.
    mutating func formUnion(_ others: ObjectSet...) {
        for other in others {
            for id in other { insert(id) }
        }
    }

    mutating func remove(_ id: ObjectID) {
        guard contains(id) else { return }
        flags[id] = false
        count -= 1
    }

    mutating func removeAll() {
        flags = []
        count = 0
    }

    /// The members in increasing order.
    func makeIterator() -> some IteratorProtocol<ObjectID> {
        var index = 0
        let flags = self.flags
        return AnyIterator {
            while index < flags.count {
                defer { index += 1 }
                if flags[index] { return index }
            }
            return nil
        }
    }
}

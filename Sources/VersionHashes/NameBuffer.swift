/// Names as UTF-8 in one buffer, put in Core Data's name order (`VersionHasher.nameOrder`)
/// without a `String` copied, retained and released at every comparison: an entity's row and
/// the model's digest sort their names this way.
struct NameBuffer {
    private var bytes: [UInt8] = []
    /// Where each name starts in `bytes`, and after the last, where it ends.
    private var starts: [Int] = [0]

    var count: Int { starts.count - 1 }

    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        starts.append(0)
    }

    mutating func append(_ name: String) {
        bytes.append(contentsOf: name.utf8)
        starts.append(bytes.count)
    }

    /// Calls `body` with a function that gives the name at a position, as appended; the
    /// buffers it gives are valid only inside `body`.
    func withNames<Result>(_ body: ((Int) -> UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        bytes.withUnsafeBufferPointer { all in
            starts.withUnsafeBufferPointer { starts in
                body { position in UnsafeBufferPointer(rebasing: all[starts[position]..<starts[position + 1]]) }
            }
        }
    }

    /// The positions in Core Data's order of their names; of equal names, the first position alone.
    func positionsInNameOrder() -> [Int] {
        var order = Array(0..<count)
        withNames { name in
            func comesFirst(_ left: Int, _ right: Int) -> Bool {
                let order = VersionHasher.nameOrder(name(left), name(right))
                return order == 0 ? left < right : order < 0
            }
            if order.count <= 16 {
                // An entity's few properties: an insertion sort, no sort machinery.
                for end in order.indices.dropFirst() {
                    var index = end
                    while index > 0, comesFirst(order[index], order[index - 1]) {
                        order.swapAt(index, index - 1)
                        index -= 1
                    }
                }
            } else {
                order.sort(by: comesFirst)
            }
            var kept = 0
            for index in order.indices {
                if kept > 0, VersionHasher.nameOrder(name(order[kept - 1]), name(order[index])) == 0 { continue }
                order[kept] = order[index]
                kept += 1
            }
            order.removeLast(order.count - kept)
        }
        return order
    }

    /// Whether the names at `positions`, in that order, are an order no ground truth has
    /// covered (`UnverifiedRule.nameOrder`).
    func orderIsUnverified(_ positions: some Sequence<Int>) -> Bool {
        withNames { name in
            var previous: UnsafeBufferPointer<UInt8>?
            for position in positions {
                if VersionHasher.orderIsUnverified(after: previous, name(position)) { return true }
                previous = name(position)
            }
            return false
        }
    }
}

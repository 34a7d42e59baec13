/// One slot per concurrent task (`DispatchQueue.concurrentPerform`): each task writes only its
/// own slot, and the slots are read after every task has finished, so no two threads ever touch
/// the same memory. Raw memory rather than an array, so that no task writes to a shared array
/// value. Used by the loader (one slot per part of a document) and the lint engine (one per rule).
package final class ConcurrentSlots<Value>: @unchecked Sendable {
    private let slots: UnsafeMutableBufferPointer<Value?>

    package init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    deinit {
        slots.deinitialize()
        slots.deallocate()
    }

    package subscript(index: Int) -> Value? {
        get { slots[index] }
        set { slots[index] = newValue }
    }

    /// Every slot's value, moved out (not copied) in slot order, or nil when a slot is empty.
    package func takeAll() -> [Value]? {
        guard slots.allSatisfy({ $0 != nil }) else { return nil }
        return slots.indices.map { slots[$0].take()! }
    }
}

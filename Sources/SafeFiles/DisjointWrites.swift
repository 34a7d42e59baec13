/// A buffer that the tasks of one `DispatchQueue.concurrentPerform` (or DataModel's
/// `ConcurrentWork.perform`) fill at once, each writing only its own part, read after every
/// task has finished: so no two threads touch the same memory. Sendable by that contract
/// alone, which is why it is a type of its own and not a bare pointer. In SafeFiles, the
/// lowest module, so that its read in halves and the loader's, hasher's and diff's tasks share it.
package struct DisjointWrites<Element>: @unchecked Sendable {
    package let buffer: UnsafeMutableBufferPointer<Element>

    package init(_ buffer: UnsafeMutableBufferPointer<Element>) {
        self.buffer = buffer
    }
}

import CAllocatorTuning
import Dispatch

/// `DispatchQueue.concurrentPerform`, with each worker thread's heap prepared before it builds
/// anything (`momlint_prepare_thread_heap`: huge pages, when the `momlint` executable tuned the
/// allocator; nothing otherwise, so a library user's process is left as it was). Every place
/// the loader and the lint engine build things on more than one core goes through here (the
/// file read in halves, in `SafeFiles`, fills a buffer allocated before and allocates nothing).
package enum ConcurrentWork {
    package static func perform(iterations: Int, _ work: @Sendable (Int) -> Void) {
        DispatchQueue.concurrentPerform(iterations: iterations) { index in
            _ = momlint_prepare_thread_heap()
            work(index)
        }
    }
}

import CAllocatorTuning
import Testing

/// `momlint_tune_allocator` (called first in `momlint`'s `main`) must reach glibc's `mallopt`:
/// its header guard once compiled it to nothing, and only a strace of the 10,000-entity lint
/// showed the 6,300 `mprotect` calls it exists to remove.
struct AllocatorTuningTests {
    @Test func theAllocatorIsTunedWhereItIsGlibcs() {
        #if canImport(Glibc)
        #expect(momlint_tune_allocator() == 1)
        #else
        #expect(momlint_tune_allocator() == 0)
        #endif
    }
}

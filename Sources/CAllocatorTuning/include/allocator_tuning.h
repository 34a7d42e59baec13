#ifndef MOMLINT_ALLOCATOR_TUNING_H
#define MOMLINT_ALLOCATOR_TUNING_H

/// Tunes the C allocator for what one momlint run does: build a whole model, on every core,
/// and exit. Call it first thing in `main`, before any thread starts.
///
/// With glibc, a thread other than the main one allocates from an arena of its own, and that
/// arena's heap grows one `mprotect` call at a time, by exactly what the allocation lacks:
/// reading a 10,000-entity model in two parts made 6,300 of them, nearly all for 4 KiB, on the
/// second part's thread. Reserving 64 MiB of address space up front for each heap (top pad)
/// makes them 15; serving allocations below 32 MiB from those heaps (the largest mmap
/// threshold glibc itself would adapt to) reuses freed memory instead of mapping and faulting
/// in fresh pages for every large array that grows. Reserved pages cost nothing until they are
/// touched.
///
/// It also advises the kernel to back the main heap with transparent huge pages
/// (`madvise(MADV_HUGEPAGE)`), as glibc's own `glibc.malloc.hugetlb=1` tunable would, which
/// glibc reads only from the environment at start-up. A model is built from millions of
/// small allocations, and faulting them in 4 KiB at a time was a sixth of the CPU time of the
/// 10,000-entity lint. Where the kernel's THP mode is `never`, the advice changes nothing.
/// Measured in docs/benchmarks.md.
///
/// Does nothing (and returns 0) where the allocator is not glibc's; returns 1 once tuned.
int momlint_tune_allocator(void);

/// Gives the calling thread's heap the huge-page advice `momlint_tune_allocator` gave the
/// main heap; call it on a worker thread before it builds anything large. Once per thread:
/// later calls, calls on the main thread, and every call in a process that did not call
/// `momlint_tune_allocator` do nothing and return NULL. Returns the start of the range it
/// advised, which runs to the end of the heap.
///
/// glibc maps each heap of a thread's arena on its own, aligned to its maximum size (64 MiB
/// on 64-bit), so the rest of the heap holding a fresh allocation is known from the
/// allocation's address. Advice is only a hint: were that layout ever different, the hint
/// would reach anonymous memory beside the heap, and change nothing but its page size.
void *_Nullable momlint_prepare_thread_heap(void);

#endif

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
/// touched. Measured in docs/benchmarks.md.
///
/// Does nothing (and returns 0) where the allocator is not glibc's; returns 1 once tuned.
int momlint_tune_allocator(void);

#endif

#include "allocator_tuning.h"

#if defined(__linux__)
#include <malloc.h>  // glibc's defines __GLIBC__ (through features.h), M_TOP_PAD and mallopt
#endif

#if defined(__GLIBC__) && defined(M_TOP_PAD) && defined(M_MMAP_THRESHOLD)
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>
#define MOMLINT_TUNES_GLIBC 1
#endif

#if MOMLINT_TUNES_GLIBC && defined(MADV_HUGEPAGE)
#define MOMLINT_ADVISES_HUGE_PAGES 1

/// Set once, by momlint_tune_allocator, before any other thread starts; until then no heap is
/// advised, so a process that only links this code (a test, a library user) is left alone.
static int huge_pages_wanted;
static _Thread_local int thread_heap_prepared;

/// The end of the program's data (man 3 end): glibc's main arena grows from the program break
/// above it, while every other arena's heaps are mapped elsewhere.
extern char end;

/// glibc's HEAP_MAX_SIZE (malloc/arena.c): every heap of a thread's arena is mapped alone, at
/// an address that is a multiple of this span, and never grows past it.
static const uintptr_t thread_heap_span = 2 * 4 * 1024 * 1024 * sizeof(long);

static uintptr_t round_down(uintptr_t address, uintptr_t span) { return address & ~(span - 1); }
static uintptr_t page_size(void) { return (uintptr_t)sysconf(_SC_PAGESIZE); }

static int in_main_heap(uintptr_t address) {
    return address >= (uintptr_t)&end && address < (uintptr_t)sbrk(0);
}

/// Advises the main heap, from a fresh block to the program break. The block is larger than
/// the heap's first extent, so allocating it moves the break by the block plus the top pad;
/// the advice must come after that move, because the kernel maps a later move of the break
/// as a new region without it. Called off the main thread, the block comes from another
/// arena, and nothing is advised here.
static void advise_main_heap(void) {
    void *block = malloc(1024 * 1024);
    if (block == NULL) return;
    uintptr_t start = round_down((uintptr_t)block, page_size());
    if (in_main_heap(start)) madvise((void *)start, (uintptr_t)sbrk(0) - start, MADV_HUGEPAGE);
    free(block);
}
#endif

int momlint_tune_allocator(void) {
#if MOMLINT_TUNES_GLIBC
    const int mebibyte = 1024 * 1024;
    int tuned = mallopt(M_TOP_PAD, 64 * mebibyte) && mallopt(M_MMAP_THRESHOLD, 32 * mebibyte);
#if MOMLINT_ADVISES_HUGE_PAGES
    if (tuned && !huge_pages_wanted) {
        huge_pages_wanted = 1;
        advise_main_heap();
    }
#endif
    return tuned;
#else
    return 0;
#endif
}

void *momlint_prepare_thread_heap(void) {
#if MOMLINT_ADVISES_HUGE_PAGES
    if (!huge_pages_wanted || thread_heap_prepared) return NULL;
    thread_heap_prepared = 1;
    void *probe = malloc(1);
    if (probe == NULL) return NULL;
    uintptr_t start = round_down((uintptr_t)probe, page_size());
    free(probe);
    // The main thread, or a thread that glibc gave the main arena: advised at start-up.
    if (in_main_heap(start)) return NULL;
    // From the probe to the end of its heap's span: the part of the heap still to be used.
    uintptr_t heap_end = round_down(start, thread_heap_span) + thread_heap_span;
    return madvise((void *)start, heap_end - start, MADV_HUGEPAGE) == 0 ? (void *)start : NULL;
#else
    return NULL;
#endif
}

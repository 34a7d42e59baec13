#include "allocator_tuning.h"

#if defined(__linux__)
#include <malloc.h>  // glibc's defines __GLIBC__ (through features.h), M_TOP_PAD and mallopt
#endif

int momlint_tune_allocator(void) {
#if defined(__GLIBC__) && defined(M_TOP_PAD) && defined(M_MMAP_THRESHOLD)
    const int mebibyte = 1024 * 1024;
    return mallopt(M_TOP_PAD, 64 * mebibyte) && mallopt(M_MMAP_THRESHOLD, 32 * mebibyte);
#else
    return 0;
#endif
}

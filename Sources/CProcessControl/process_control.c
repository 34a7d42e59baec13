#include "process_control.h"

#include <errno.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

int momlint_become_child_subreaper(void) {
#if defined(__linux__) && defined(PR_SET_CHILD_SUBREAPER)
    return prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
#else
    errno = ENOSYS;
    return -1;
#endif
}

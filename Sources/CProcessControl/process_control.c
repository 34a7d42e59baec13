#include "process_control.h"

#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
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

static volatile sig_atomic_t forward_fd = -1;
static volatile sig_atomic_t stop_requested = 0;

static void forward_signal(int signal_number) {
    int saved_errno = errno;
    stop_requested = 1;
    unsigned char byte = (unsigned char)signal_number;
    if (forward_fd >= 0) {
        (void)write(forward_fd, &byte, 1);
    }
    errno = saved_errno;
}

/// Registered with atexit. Once a signal has arrived, the thread reading the pipe stops every
/// shim and ends the process with _exit(128 + signal), which runs no atexit handler. Meanwhile
/// the run itself sees its shims die, fails their scenarios and may reach exit() first, which
/// would report 1 instead of the signal; this holds such an exit until the stop ends the
/// process, for a minute at most, so a stop that never finishes cannot hang momlint.
static void hold_exit_while_stopping(void) {
    for (int second = 0; stop_requested && second < 60; second++) {
        sleep(1);
    }
}

int momlint_forward_termination_signals(int fd) {
    forward_fd = fd;
    if (atexit(hold_exit_while_stopping) != 0) {
        return -1;
    }
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = forward_signal;
    sigemptyset(&action.sa_mask);
    action.sa_flags = SA_RESTART;
    const int signals[] = {SIGINT, SIGTERM, SIGHUP};
    for (unsigned index = 0; index < sizeof signals / sizeof signals[0]; index++) {
        if (sigaction(signals[index], &action, NULL) != 0) {
            return -1;
        }
    }
    return 0;
}

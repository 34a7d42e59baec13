#ifndef MOMLINT_PROCESS_CONTROL_H
#define MOMLINT_PROCESS_CONTROL_H

/// Makes this process the "child subreaper" of everything it starts (Linux prctl
/// PR_SET_CHILD_SUBREAPER): a descendant whose parent exits is re-parented to this process
/// instead of init, so it can still be found and stopped. Swift cannot call prctl, which is
/// variadic. Returns 0 on success, -1 (errno set) on failure or where the call does not exist.
int momlint_become_child_subreaper(void);

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that write the signal's number, one byte,
/// to `fd` (the write end of a pipe) and do nothing else: a signal handler may only make
/// async-signal-safe calls, so a thread reading the pipe does the work (stopping every shim).
/// Interrupted system calls restart (SA_RESTART). Once a signal has arrived, exit() waits (a
/// minute at most) for that thread to end the process with the signal's status. Returns 0, or
/// -1 (errno set when a handler could not be installed).
int momlint_forward_termination_signals(int fd);

#endif

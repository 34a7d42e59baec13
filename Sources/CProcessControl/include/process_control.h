#ifndef MOMLINT_PROCESS_CONTROL_H
#define MOMLINT_PROCESS_CONTROL_H

/// Makes this process the "child subreaper" of everything it starts (Linux prctl
/// PR_SET_CHILD_SUBREAPER): a descendant whose parent exits is re-parented to this process
/// instead of init, so it can still be found and stopped. Swift cannot call prctl, which is
/// variadic. Returns 0 on success, -1 (errno set) on failure or where the call does not exist.
int momlint_become_child_subreaper(void);

#endif

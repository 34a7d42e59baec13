import CProcessControl
import Foundation
import SafeFiles

/// What momlint does when it is told to stop (SIGINT, SIGTERM, SIGHUP) while shims run.
///
/// Each shim runs in a process group of its own, so a terminal's Ctrl-C, a CI runner's SIGTERM
/// or a closed terminal's SIGHUP reaches momlint alone; left to the default action, momlint
/// would die and every shim (and what it started) would run on, re-parented to init. Instead
/// the signal is forwarded through a pipe (the handler, in C, only writes its number: nothing
/// else is safe in a signal handler) to a thread that stops every shim and everything it
/// started (`ShimRegistry.stopEverything`), says so on stderr, and exits with 128 + the signal's
/// number, as a shell reports a process the signal killed.
enum TerminationSignals {
    /// Installs the handlers, once, on first use; false when they cannot be installed.
    static let installed: Bool = {
        guard let ends = ChildProcess.makePipe() else { return false }
        let watcher = Thread { watch(ends.read) }
        watcher.name = "momlint termination signals"
        watcher.start()
        return momlint_forward_termination_signals(ends.write) == 0
    }()

    private static let names: [Int32: String] = [SIGINT: "SIGINT", SIGTERM: "SIGTERM", SIGHUP: "SIGHUP"]

    private static func watch(_ descriptor: Int32) {
        // This thread may inherit a mask that blocks the signals (dispatch's workers block
        // them); unblocked here, there is always a thread the kernel can deliver them to.
        var signals = sigset_t()
        sigemptyset(&signals)
        for signal in names.keys { sigaddset(&signals, signal) }
        pthread_sigmask(SIG_UNBLOCK, &signals, nil)
        var number: UInt8 = 0
        while true {
            let count = read(descriptor, &number, 1)
            if count == 1 { break }
            if count < 0 && errno == EINTR { continue }
            return
        }
        let signal = Int32(number)
        ShimRegistry.shared.stopForGood()
        let line = "momlint: stopped by \(names[signal] ?? "signal \(signal)"); stopping every shim and everything it started\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
        ShimRegistry.stopEverything()
        // _exit, not exit: other threads are mid-run, and exit's handlers and stdio flushing
        // could wait on locks they hold.
        _exit(128 + signal)
    }
}

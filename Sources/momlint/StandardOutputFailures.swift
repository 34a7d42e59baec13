import Foundation
import SafeFiles
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A report that cannot reach standard output — a full disk (`> /dev/full`), a pipe whose
/// reader has gone (`| true`) — ends in one line and exit 2, whichever command wrote it:
/// `error: cannot write to standard output: no space left on device`. Never exit 0 with the
/// output lost, and never a silent death by SIGPIPE (status 141) that a CI step cannot tell
/// from a crash.
enum StandardOutputFailures {
    /// Catches SIGPIPE with a handler that does nothing, so the write itself fails with EPIPE
    /// and the writer reports it. A handler, not SIG_IGN: an ignored signal stays ignored in
    /// every program momlint starts (git, store shims), while a caught one is reset to its
    /// default by exec(2) (https://man7.org/linux/man-pages/man2/execve.2.html).
    static func reportInsteadOfDying() {
        signal(SIGPIPE) { _ in }
    }

    /// For the commands that `print` to standard output (stdio keeps the text in a buffer and
    /// drops a failed write's error at exit): flushes it, and when any write to it failed,
    /// says so and exits 2. `lint`, `conformance`, `export` and `graph` write unbuffered
    /// (`writeToStandardOutput`) and report their own failures.
    static func exitIfLost() {
        guard let code = StandardOutputStream.flushFailure() else { return }
        var standardError = StandardError()
        let reason = code == 0 ? "part of the output was not written" : FileAccessError(path: "", problem: .system(code)).reason
        print("error: cannot write to standard output: \(reason)", to: &standardError)
        Foundation.exit(2)  // ExitCode.inputError: the code for a report that could not be written
    }
}

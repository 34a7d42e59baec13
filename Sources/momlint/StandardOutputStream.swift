// No Foundation here: through Foundation's re-export, a reference to C's `stdout` is a
// concurrency error in Swift 6; imported directly and `@preconcurrency`, it is accepted. This
// file holds the two standard streams the commands print to.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Musl)
@preconcurrency import Musl
#elseif canImport(Darwin)
@preconcurrency import Darwin
#endif
import SafeFiles

/// C's buffered standard output, which Swift's `print` writes to.
enum StandardOutputStream {
    /// Flushes it. Nil when everything written to it so far arrived; otherwise the `errno` of
    /// the failure (0 when an earlier write failed and its error was not kept).
    static func flushFailure() -> Int32? {
        let flushFailed = fflush(stdout) != 0
        let code = errno
        if flushFailed { return code }
        return ferror(stdout) != 0 ? 0 : nil
    }
}

/// `SafeFiles.StandardError`, named here so that every command file reaches it without
/// importing SafeFiles.
typealias StandardError = SafeFiles.StandardError

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

/// Lets `print(_:to:)` write to standard error, where diagnostics about inputs belong, through
/// `StandardOutput.writeToStandardError` (unbuffered `write(2)`, like standard output; not
/// Foundation's `FileHandle` and `Data`, whose first use costs a small model's run a tenth of a
/// millisecond in the runtime's conformance lookups).
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        StandardOutput.writeToStandardError(string)
    }
}

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

/// Lets `print(_:to:)` write to standard error, where diagnostics about inputs belong.
/// Unbuffered, like `StandardOutput`, so the two streams reach a shared pipe in program order.
/// Written with `write(2)` directly: Foundation's `FileHandle` and `Data` cost a small model's
/// run a tenth of a millisecond the first time (the runtime's conformance lookups).
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { bytes in
            var written = 0
            while written < bytes.count {
                let result = writeToStandardError(bytes.baseAddress! + written, bytes.count - written)
                if result > 0 {
                    written += result
                } else if result < 0 && errno == EINTR {
                    continue
                } else {
                    return // As before: a failed write to standard error is not reported anywhere.
                }
            }
        }
    }
}

/// C's `write(2)`, named apart from `StandardError.write(_:)`, which would otherwise shadow it.
private func writeToStandardError(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int {
    write(STDERR_FILENO, bytes, count)
}

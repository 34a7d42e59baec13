/// Watches everything a shim writes on stderr for the one line that says why it died — a
/// Swift `Fatal error:`, the last line of a Python traceback, a Java exception — so a failure
/// message can quote it even when a flood of later output has pushed it out of the kept tail.
///
/// Fed bytes as they are read; keeps only the current partial line (bounded) and the last
/// line found.
struct StderrDiagnosis {
    /// The most of one line kept while waiting for its newline.
    static let maximumLineBytes = 4096

    /// The latest line that looks like the cause of a crash, when one was seen.
    private(set) var causeLine: String?
    private var partial: [UInt8] = []
    private var inPythonTraceback = false

    mutating func feed(_ bytes: some Sequence<UInt8>) {
        for byte in bytes {
            if byte == UInt8(ascii: "\n") {
                consider(String(decoding: partial, as: UTF8.self))
                partial.removeAll(keepingCapacity: true)
            } else if partial.count < Self.maximumLineBytes {
                partial.append(byte)
            }
        }
    }

    /// The cause, with a line still waiting for its newline considered too (a process that
    /// crashed mid-line).
    var cause: String? {
        var copy = self
        if !copy.partial.isEmpty { copy.consider(String(decoding: copy.partial, as: UTF8.self)) }
        return copy.causeLine
    }

    private mutating func consider(_ rawLine: String) {
        let line = rawLine.hasSuffix("\r") ? String(rawLine.dropLast()) : rawLine
        let trimmed = line.trimmingPrefix { $0 == " " || $0 == "\t" }
        if line.hasPrefix("Traceback (most recent call last)") {
            inPythonTraceback = true
            return
        }
        if inPythonTraceback {
            // The frames are indented; the first line that is not is the exception itself.
            if line.first == " " || line.first == "\t" || line.isEmpty { return }
            inPythonTraceback = false
            causeLine = line
            return
        }
        if Self.isSwiftFatal(line) || Self.isJavaException(String(trimmed)) {
            causeLine = String(trimmed)
        }
    }

    /// `Swift/Array.swift:418: Fatal error: Index out of range`, `Fatal error: …`,
    /// `… Precondition failed: …`, `… Assertion failed: …`.
    static func isSwiftFatal(_ line: String) -> Bool {
        ["Fatal error:", "Precondition failed:", "Assertion failed:", "Unexpectedly found nil"]
            .contains { line.contains($0) }
    }

    /// `Exception in thread "main" java.lang.IllegalStateException: …` or a `Caused by:` line.
    static func isJavaException(_ line: String) -> Bool {
        line.hasPrefix("Exception in thread ") || line.hasPrefix("Caused by: ")
    }
}

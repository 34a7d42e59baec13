#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a report, a baseline or the conformance page to a path the user named, without ever
/// replacing something that is not a regular file.
///
/// A regular file (or nothing) is replaced whole: the text goes to a new file beside it, which is
/// renamed over it, so a reader never sees half a report. Anything else is never replaced:
/// - a symbolic link is followed: the file it points to is replaced as above (the link stays a
///   link), or written through if it points to a FIFO or a device; a link to nothing is refused;
/// - a FIFO, a character device (`/dev/stdout`, `/dev/null`, a terminal) or a socket is written
///   through, as a shell's `>` would; a FIFO nobody reads is refused rather than waited on;
/// - a folder or a block device is refused;
/// - a name for one of momlint's own open descriptors (`/dev/stdout`, `/dev/stderr`,
///   `/dev/fd/N`, `/proc/self/fd/N`, or a link to one) is written to that descriptor, as a
///   shell's `>` would: following it to the file standard output is redirected to and renaming
///   over that file would replace the whole log (everything written before momlint ran) with
///   one report.
/// Missing folders on the way are created. Every failure says what failed, in words.
public enum OutputFileWriter {
    public static func write(_ bytes: [UInt8], toPath path: String) throws(FileAccessError) {
        if let descriptor = try openDescriptor(namedBy: path) {
            return try writeAll(bytes, to: descriptor, path: path)
        }
        var status = stat()
        if lstat(path, &status) != 0 {
            guard errno == ENOENT else { throw FileAccessError(path: path, problem: .system(errno)) }
            try createFolders(containing: path)
            return try replace(path, with: bytes, mode: nil)
        }
        switch FileKind(mode: status.st_mode) {
        case .regular:
            return try replace(path, with: bytes, mode: status.st_mode & 0o7777)
        case .directory:
            throw FileAccessError(path: path, problem: .other("it is a folder; name a file to write"))
        case .blockDevice:
            throw FileAccessError(path: path, problem: .other("it is a block device; momlint does not write to one"))
        default:
            try writeThrough(path, bytes)
        }
    }

    /// The descriptor of this process that `path` names — `/dev/stdout` (1), `/dev/stderr` (2),
    /// `/dev/fd/N`, `/proc/self/fd/N`, `/proc/<this process>/fd/N` — itself or through the
    /// symbolic links on the way to its target; nil for any other path. A descriptor that is
    /// not open is refused.
    public static func openDescriptor(namedBy path: String) throws(FileAccessError) -> Int32? {
        var current = path
        for _ in 0..<40 {  // the kernel's own limit on links followed (MAXSYMLINKS)
            if let descriptor = descriptorNumber(in: current) {
                guard fcntl(descriptor, F_GETFD) >= 0 else {
                    throw FileAccessError(path: path, problem: .other("it names descriptor \(descriptor), which momlint does not have open"))
                }
                return descriptor
            }
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            let length = readlink(current, &buffer, buffer.count - 1)
            guard length > 0 else { return nil }  // not a link (or gone): an ordinary path
            let target = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            current = target.hasPrefix("/") ? target : folderPath(of: current) + "/" + target
        }
        return nil
    }

    /// `1` for `/dev/stdout`, `N` for `/dev/fd/N`, … by the spelling alone.
    private static func descriptorNumber(in path: String) -> Int32? {
        switch path {
        case "/dev/stdin": return 0
        case "/dev/stdout": return 1
        case "/dev/stderr": return 2
        default: break
        }
        let ownProcess = "/proc/\(getpid())/fd/"
        for prefix in ["/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", ownProcess] where path.hasPrefix(prefix) {
            let number = path.dropFirst(prefix.count)
            guard !number.isEmpty, number.allSatisfy(\.isASCII), number.allSatisfy(\.isNumber) else { return nil }
            return Int32(number)
        }
        return nil
    }

    /// Where a report to `path` ends up, for telling two reports aimed at one place apart: the
    /// descriptor it names, or the absolute path with every link resolved (the folder's, when
    /// the file does not exist yet).
    public static func destinationIdentity(of path: String) -> String {
        if let descriptor = try? openDescriptor(namedBy: path) { return "descriptor \(descriptor)" }
        if let resolved = canonicalPath(of: path) { return resolved }
        let name = String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
        if let folder = canonicalPath(of: folderPath(of: path)) { return folder + "/" + name }
        return path
    }

    /// A symlink, FIFO, character device or socket: opened as it is (following a link) and
    /// checked on the open descriptor; a regular file found behind a link is replaced at its own path.
    private static func writeThrough(_ path: String, _ bytes: [UInt8]) throws(FileAccessError) {
        // No O_CREAT: a link to nothing is refused, never turned into a new file somewhere.
        // O_NONBLOCK: opening a FIFO nobody reads fails at once (ENXIO) instead of waiting forever.
        let descriptor = open(path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT: throw FileAccessError(path: path, problem: .other("it is a symbolic link to nothing"))
            case ENXIO: throw FileAccessError(path: path, problem: .other("it is a FIFO that no process is reading"))
            default: throw FileAccessError(path: path, problem: .system(code))
            }
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw FileAccessError(path: path, problem: .system(errno)) }
        switch FileKind(mode: status.st_mode) {
        case .regular:
            guard let targetPath = canonicalPath(of: path) else { throw FileAccessError(path: path, problem: .system(errno)) }
            do {
                try replace(targetPath, with: bytes, mode: status.st_mode & 0o7777)
            } catch {
                throw FileAccessError(path: path, problem: .other("its target \(targetPath): \(error.reason)"))
            }
        case .directory:
            throw FileAccessError(path: path, problem: .other("it is a link to a folder; name a file to write"))
        case .blockDevice:
            throw FileAccessError(path: path, problem: .other("it is a block device; momlint does not write to one"))
        default:
            // From here on a slow reader slows the write down, as it would a shell's `>`.
            let flags = fcntl(descriptor, F_GETFL)
            if flags >= 0 { _ = fcntl(descriptor, F_SETFL, flags & ~O_NONBLOCK) }
            try writeAll(bytes, to: descriptor, path: path)
        }
    }

    /// Writes `bytes` to a new file beside `path` and renames it over `path`. `mode` is the
    /// replaced file's; a new file gets 0666 less the umask, as any tool's output does.
    private static func replace(_ path: String, with bytes: [UInt8], mode: mode_t?) throws(FileAccessError) {
        let folder = folderPath(of: path)
        let name = String(path.split(separator: "/").last ?? "report")
        var temporaryPath = ""
        var descriptor: Int32 = -1
        for _ in 0..<100 {
            temporaryPath = folder + "/." + name + ".momlint-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
            descriptor = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o666)
            if descriptor >= 0 || errno != EEXIST { break }
        }
        guard descriptor >= 0 else { throw FileAccessError(path: path, problem: .system(errno)) }
        var finished = false
        defer {
            close(descriptor)
            if !finished { unlink(temporaryPath) }
        }
        if let mode { _ = fchmod(descriptor, mode) }
        try writeAll(bytes, to: descriptor, path: path)
        guard fsync(descriptor) == 0 || errno == EINVAL, rename(temporaryPath, path) == 0 else {
            throw FileAccessError(path: path, problem: .system(errno))
        }
        finished = true
    }

    /// Writes all of `bytes` to an open descriptor, through short writes, interruptions and a
    /// non-blocking descriptor; `path` names it in the error.
    public static func writeAll(_ bytes: [UInt8], to descriptor: Int32, path: String) throws(FileAccessError) {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { writeToDescriptor(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    // A descriptor someone else made non-blocking (a shared pipe): wait until it drains.
                    var ready = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
                    _ = poll(&ready, 1, -1)
                    continue
                }
                throw FileAccessError(path: path, problem: .system(errno))
            }
            written += count
        }
    }

    private static func createFolders(containing path: String) throws(FileAccessError) {
        let folder = folderPath(of: path)
        var prefix = folder.hasPrefix("/") ? "" : "."
        for component in folder.split(separator: "/") {
            prefix += "/" + component
            if mkdir(prefix, 0o777) != 0 && errno != EEXIST {
                throw FileAccessError(path: path, problem: .other("cannot create the folder \(prefix): "
                    + String(cString: strerror(errno))))
            }
        }
    }
}

/// Standard output, written with `write(2)` so that a failure (a full disk, a closed pipe) is
/// seen and reported instead of lost in a stdio buffer at exit.
public enum StandardOutput {
    public static func write(_ text: String) throws(FileAccessError) {
        try write(bytes: Array(text.utf8))
    }

    public static func write(bytes: [UInt8]) throws(FileAccessError) {
        try OutputFileWriter.writeAll(bytes, to: 1, path: "standard output")
    }

    /// Standard error, written the same way, unbuffered, so that the two streams reach a shared
    /// pipe in program order. A failure there has nowhere left to be reported.
    public static func writeToStandardError(_ text: String) {
        try? OutputFileWriter.writeAll(Array(text.utf8), to: 2, path: "standard error")
    }
}

/// Lets `print(_:to:)` write to standard error, where diagnostics about inputs belong, through
/// `StandardOutput.writeToStandardError` (unbuffered `write(2)`, like standard output; not
/// Foundation's `FileHandle` and `Data`, whose first use costs a small model's run a tenth of a
/// millisecond in the runtime's conformance lookups).
public struct StandardError: TextOutputStream {
    public init() {}

    public mutating func write(_ string: String) {
        StandardOutput.writeToStandardError(string)
    }
}

/// Writes `text` to standard output unbuffered, so that a failed write (a full disk, a closed
/// pipe) is seen: it is reported on standard error and the caller exits 2, where `print` would
/// lose the report silently at exit. False when the write failed.
@discardableResult
public func writeToStandardOutput(_ text: String) -> Bool {
    guard !text.isEmpty else { return true }
    do {
        try StandardOutput.write(text)
        return true
    } catch {
        var standardError = StandardError()
        print("error: cannot write to standard output: \(error.reason)", to: &standardError)
        return false
    }
}

/// `write(2)`, under a name `OutputFileWriter.write` does not hide.
@inline(__always)
private func writeToDescriptor(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
    Darwin.write(descriptor, buffer, count)
    #elseif canImport(Musl)
    Musl.write(descriptor, buffer, count)
    #else
    Glibc.write(descriptor, buffer, count)
    #endif
}

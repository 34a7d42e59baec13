import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file named by someone we do not trust — a model's `contents`, a `.momlint.yml`, a
/// scenario, a baseline — which may be a symlink committed to point anywhere.
///
/// Opening for reading blocks on a FIFO until a writer appears, and a terminal or an open pipe
/// (`/dev/stdin`) never ends; a device such as `/dev/zero` never ends either. So the file is
/// opened without blocking (`O_NONBLOCK`) and without becoming our controlling terminal
/// (`O_NOCTTY`), its type is checked on the open descriptor (`fstat`, so a swap between the
/// check and the read is impossible), and anything but a regular file is refused before a byte
/// is read. Then at most `limit` bytes are read, plus one to tell a file at the limit from a
/// larger one.
public enum RegularFileReader {
    /// The bytes of the regular file at `path`, refusing anything else and anything larger than `limit`.
    public static func bytes(atPath path: String, limit: Int) throws(FileAccessError) -> [UInt8] {
        let file = try open(atPath: path)
        defer { close(file.descriptor) }
        guard file.size <= limit else { throw FileAccessError(path: path, problem: .tooLarge(bytes: file.size, limit: limit)) }
        var errorCode: Int32 = 0
        let bytes = readAll(from: file.descriptor, expecting: file.size, atMost: limit + 1, errorCode: &errorCode)
        if errorCode != 0 { throw FileAccessError(path: path, problem: .system(errorCode)) }
        // The file may have grown since it was measured.
        guard bytes.count <= limit else {
            throw FileAccessError(path: path, problem: .tooLarge(bytes: bytes.count, limit: limit))
        }
        return bytes
    }

    /// A regular file opened for reading as `bytes(atPath:limit:)` opens one (never blocking,
    /// never a FIFO, device, socket or folder), for a caller that reads it in its own way: the
    /// descriptor is the caller's to close.
    public struct OpenedFile: Sendable {
        public var descriptor: Int32
        /// The size when opened.
        public var size: Int
    }

    /// Opens the regular file at `path` for reading, following symbolic links, without
    /// blocking and without becoming our controlling terminal; refuses anything else.
    public static func open(atPath path: String) throws(FileAccessError) -> OpenedFile {
        let descriptor = SafeFiles.openForReading(path)
        guard descriptor >= 0 else { throw FileAccessError(path: path, problem: .system(errno)) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            let code = errno
            close(descriptor)
            throw FileAccessError(path: path, problem: .system(code))
        }
        let kind = FileKind(mode: status.st_mode)
        guard kind == .regular else {
            close(descriptor)
            throw FileAccessError(path: path, problem: .notARegularFile(kind))
        }
        return OpenedFile(descriptor: descriptor, size: Int(status.st_size))
    }

    /// Reads until the end of the file or `limit` bytes, whichever comes first; a failed read
    /// stops it and leaves `errno` in `errorCode`. Straight into the array the caller keeps:
    /// going through `Data` copied a large model twice.
    private static func readAll(from descriptor: Int32, expecting size: Int, atMost limit: Int,
                                errorCode: inout Int32) -> [UInt8] {
        // One read of the measured size, plus one byte that finds the end of the file.
        let firstRead = min(size + 1, limit)
        var bytes = [UInt8](unsafeUninitializedCapacity: firstRead) { buffer, initialized in
            initialized = firstRead >= concurrentReadBytes
                ? fillInHalves(buffer, from: descriptor, errorCode: &errorCode)
                : fill(buffer, from: descriptor, atOffset: 0, errorCode: &errorCode)
        }
        // A file that grew since it was measured: read on, a chunk at a time, up to the limit.
        var filledLastBuffer = bytes.count == firstRead
        while filledLastBuffer && errorCode == 0 && bytes.count < limit {
            let chunkSize = min(1 << 20, limit - bytes.count)
            let offset = bytes.count
            let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, initialized in
                initialized = fill(buffer, from: descriptor, atOffset: offset, errorCode: &errorCode)
            }
            bytes += chunk
            filledLastBuffer = chunk.count == chunkSize
        }
        return bytes
    }

    /// From this size on, the first read is made in two halves at once (`fillInHalves`).
    static let concurrentReadBytes = 4 << 20

    /// `fill`, with the two halves of `buffer` read at once, each on its own core. Most of
    /// reading a large file is the kernel faulting in and filling the buffer's fresh pages, and
    /// each half's thread does that for its own (docs/benchmarks.md, "Serial passes before the
    /// parse").
    private static func fillInHalves(_ buffer: UnsafeMutableBufferPointer<UInt8>, from descriptor: Int32,
                                     errorCode: inout Int32) -> Int {
        let halves = [0..<buffer.count / 2, buffer.count / 2..<buffer.count]
        let results = UnsafeMutableBufferPointer<(count: Int, errorCode: Int32)>.allocate(capacity: 2)
        defer { results.deallocate() }
        let (bytes, outcomes) = (DisjointWrites(buffer), DisjointWrites(results))
        DispatchQueue.concurrentPerform(iterations: 2) { number in
            var halfError: Int32 = 0
            let range = halves[number]
            let count = fill(UnsafeMutableBufferPointer(rebasing: bytes.buffer[range]), from: descriptor,
                             atOffset: range.lowerBound, errorCode: &halfError)
            outcomes.buffer[number] = (count, halfError)
        }
        // The second half counts only after a whole first half (the file may have shrunk).
        let (first, second) = (results[0], results[1])
        guard first.errorCode == 0, first.count == halves[0].count else {
            errorCode = first.errorCode
            return first.count
        }
        errorCode = second.errorCode
        return first.count + second.count
    }

    /// Fills `buffer` from the file at `offset` (`pread`: every reader here reads a regular
    /// file, and no file position is shared between the halves). Returns how many bytes it read
    /// (fewer at the end of the file).
    private static func fill(_ buffer: UnsafeMutableBufferPointer<UInt8>, from descriptor: Int32, atOffset offset: Int,
                             errorCode: inout Int32) -> Int {
        guard let base = buffer.baseAddress else { return 0 }
        var count = 0
        while count < buffer.count {
            let got = pread(descriptor, base + count, buffer.count - count, off_t(offset + count))
            if got > 0 {
                count += got
            } else if got == 0 {
                break
            } else if errno != EINTR {
                errorCode = errno
                break
            }
        }
        return count
    }
}

/// `open(2)` for reading without blocking on a FIFO and without taking a terminal.
func openForReading(_ path: String) -> Int32 {
    open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
}

/// What kind of file a path names, for a message that says why it was refused.
public enum FileKind: Hashable, Sendable {
    case regular, directory, fifo, characterDevice, blockDevice, socket, symbolicLink, unknown

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFIFO: self = .fifo
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        case S_IFSOCK: self = .socket
        case S_IFLNK: self = .symbolicLink
        default: self = .unknown
        }
    }

    /// "a FIFO", "a character device", … for "is not a regular file (a FIFO)".
    public var description: String {
        switch self {
        case .regular: "a regular file"
        case .directory: "a folder"
        case .fifo: "a FIFO"
        case .characterDevice: "a character device"
        case .blockDevice: "a block device"
        case .socket: "a socket"
        case .symbolicLink: "a symbolic link"
        case .unknown: "of an unknown kind"
        }
    }
}

/// A file that could not be read or written, with the reason in words.
public struct FileAccessError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable {
        /// A FIFO, device, socket or folder where a regular file was expected.
        case notARegularFile(FileKind)
        case tooLarge(bytes: Int, limit: Int)
        /// The system call failed with this `errno`.
        case system(Int32)
        /// Anything else, already in words.
        case other(String)
    }

    public var path: String
    public var problem: Problem

    public init(path: String, problem: Problem) {
        self.path = path
        self.problem = problem
    }

    /// The reason as a clause for "cannot read X: …" or "cannot write X: …", without the path:
    /// "it is not a regular file (a FIFO)", "no space left on device".
    public var reason: String {
        switch problem {
        case .notARegularFile(let kind): "it is not a regular file (\(kind.description))"
        case .tooLarge(let bytes, let limit): "it is \(bytes) bytes, over the limit of \(limit)"
        case .system(ELOOP): "it is a symbolic link that leads to itself (a loop, or a chain of more than 40 links)"
        case .system(ENAMETOOLONG): "its path is longer than the system allows (PATH_MAX, or NAME_MAX for one name)"
        case .system(ENOENT) where Self.isDanglingLink(path): "it is a symbolic link to nothing"
        case .system(let code): Self.lowercasingFirstLetter(String(cString: strerror(code)))
        case .other(let text): text
        }
    }

    private static func isDanglingLink(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0 && (status.st_mode & S_IFMT) == S_IFLNK
    }

    private static func lowercasingFirstLetter(_ text: String) -> String {
        guard let first = text.first, first.isUppercase, !text.dropFirst().prefix(1).allSatisfy(\.isUppercase) else {
            return text
        }
        return first.lowercased() + text.dropFirst()
    }

    public var description: String { "\(path): \(reason)" }
}

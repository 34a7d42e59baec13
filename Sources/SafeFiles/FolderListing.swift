#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The entries of one folder, each with its kind, as `opendir`/`readdir` give them: the entries
/// carry their type, so a walk of a source tree costs a few system calls per folder rather than
/// a `stat` and a dictionary of attributes per entry, as Foundation's directory enumerator does
/// on Linux (docs/benchmarks.md, "Walking folders"). The model search, the Swift
/// source search and the mapping-model search all walk with it.
public enum FolderListing {
    public struct Entry: Hashable, Sendable {
        public enum Kind: Hashable, Sendable {
            case folder
            case regularFile
            /// Not followed: a walk that descends only into `.folder`s cannot be trapped by a
            /// link cycle.
            case symbolicLink
            /// A FIFO, socket or device.
            case other
        }

        public var name: String
        public var kind: Kind
    }

    /// The entries of `folder` other than `.` and `..`, in no particular order; nil when it
    /// cannot be read (missing, not a folder, no permission).
    public static func entries(of folder: String) -> [Entry]? {
        listing(of: folder).entries
    }

    /// `entries(of:)`, with the `errno` of a folder that cannot be listed (0 when it was listed):
    /// a walk tells a folder that vanished (`ENOENT`) from one it must report, such as a path
    /// longer than the system allows (`ENAMETOOLONG`), whose models would otherwise be missed in
    /// silence.
    public static func listing(of folder: String) -> (entries: [Entry]?, errorCode: Int32) {
        guard let stream = opendir(folder) else { return (nil, errno) }
        defer { closedir(stream) }
        var entries: [Entry] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name == "." || name == ".." { continue }
            let kind: Entry.Kind = switch Int32(entry.pointee.d_type) {
            case Int32(DT_DIR): .folder
            case Int32(DT_REG): .regularFile
            case Int32(DT_LNK): .symbolicLink
            case Int32(DT_UNKNOWN): kindFromStatus(folder.hasSuffix("/") ? folder + name : folder + "/" + name)
            default: .other
            }
            entries.append(Entry(name: name, kind: kind))
        }
        return (entries, 0)
    }

    /// Some file systems leave `d_type` unknown; `lstat` then, which does not follow a link.
    private static func kindFromStatus(_ path: String) -> Entry.Kind {
        var status = stat()
        guard lstat(path, &status) == 0 else { return .other }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .folder
        case S_IFREG: return .regularFile
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder momlint makes for files of its own — a private copy of a store it reads, the
/// scratch databases of the SQLite adapter's child contexts — and removes with exactly the
/// files it made there, never anything else.
///
/// It is made as `mkdtemp(3)` makes one: a new name (the prefix and six random letters or
/// digits), mode 0700, and `EEXIST` means another name, never reuse. Its parent and the folder
/// itself are opened at once (the folder with `O_DIRECTORY | O_NOFOLLOW`), and every later step
/// goes through those descriptors: `unlinkat` on the folder's descriptor removes the entry of
/// *this* folder even if its path has since been swapped for a link, and never follows a link
/// in the name it removes ("If the name referred to a symbolic link, the link is removed",
/// unlink(2)); the folder is removed last, from its parent's descriptor, with `AT_REMOVEDIR`,
/// which removes only an empty folder and never one a link leads to (`ENOTDIR`).
public final class PrivateFolder {
    /// The folder's path, for a program that takes names (SQLite).
    public let path: String
    private let descriptor: Int32
    private let parentDescriptor: Int32
    private let name: String

    /// Makes a new folder in `parent` named `prefix` followed by six random letters or digits.
    public init(in parent: String, prefix: String) throws(FileAccessError) {
        let parentDescriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parentDescriptor >= 0 else { throw FileAccessError(path: parent, problem: .system(errno)) }
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        var attempts = 0
        while true {
            let name = prefix + String((0..<6).map { _ in letters.randomElement()! })
            let path = parent.hasSuffix("/") ? parent + name : parent + "/" + name
            guard mkdirat(parentDescriptor, name, 0o700) == 0 else {
                let code = errno
                attempts += 1
                if code == EEXIST && attempts < 100 { continue }
                close(parentDescriptor)
                throw FileAccessError(path: path, problem: .system(code))
            }
            let descriptor = openat(parentDescriptor, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard descriptor >= 0 else {
                let code = errno
                unlinkat(parentDescriptor, name, AT_REMOVEDIR)
                close(parentDescriptor)
                throw FileAccessError(path: path, problem: .system(code))
            }
            self.path = path
            self.descriptor = descriptor
            self.parentDescriptor = parentDescriptor
            self.name = name
            return
        }
    }

    deinit {
        close(descriptor)
        close(parentDescriptor)
    }

    /// The path of `file` in the folder.
    public func path(of file: String) -> String {
        path + "/" + file
    }

    /// Creates `file` in the folder for writing, mode 0600: `O_EXCL`, so nothing that exists —
    /// a link included — is ever opened. The descriptor is the caller's to close.
    public func createFile(named file: String) throws(FileAccessError) -> Int32 {
        let created = openat(descriptor, file, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard created >= 0 else { throw FileAccessError(path: path(of: file), problem: .system(errno)) }
        return created
    }

    /// Removes each of `files` from the folder that exists (a link as a link).
    public func removeFiles(named files: [String]) {
        Self.remove(files, from: descriptor)
    }

    /// Removes `files`, then the folder; a folder still holding anything else stays.
    public func remove(withFiles files: [String]) {
        Self.remove(files, from: descriptor)
        unlinkat(parentDescriptor, name, AT_REMOVEDIR)
    }

    /// Removes what a process that ended left in folders of `parent`: each folder (not a link to
    /// one) of this user whose name `isLeftover` accepts loses the entries named `files`, then
    /// itself when that empties it. Each folder is opened (`O_NOFOLLOW`) and checked on its
    /// descriptor before anything is removed from it, so swapping a name for a link between the
    /// listing and the removal cannot lead the removal elsewhere.
    public static func removeLeftovers(in parent: String, files: [String], where isLeftover: (String) -> Bool) {
        guard let entries = FolderListing.entries(of: parent) else { return }
        let parentDescriptor = open(parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard parentDescriptor >= 0 else { return }
        defer { close(parentDescriptor) }
        for entry in entries where entry.kind == .folder && isLeftover(entry.name) {
            let folder = openat(parentDescriptor, entry.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            guard folder >= 0 else { continue }
            defer { close(folder) }
            var status = stat()
            guard fstat(folder, &status) == 0, status.st_uid == getuid(), status.st_mode & S_IFMT == S_IFDIR else { continue }
            remove(files, from: folder)
            unlinkat(parentDescriptor, entry.name, AT_REMOVEDIR)
        }
    }

    private static func remove(_ files: [String], from folder: Int32) {
        for file in files { unlinkat(folder, file, 0) }
    }
}

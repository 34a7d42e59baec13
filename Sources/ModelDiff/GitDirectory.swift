#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import DataModel
import Foundation
import SafeFiles

/// The repository a folder is in, looked at before git is started there.
///
/// Git opens the files of its repository for reading and blocks on a FIFO until a writer comes,
/// which is never; a device (`/dev/zero`) never ends. A repository is a folder someone else may
/// have made (an archive, a submodule, a pull request's files unpacked), so the files git reads
/// on every command — `HEAD`, `config`, `packed-refs`, `index`, `commondir`,
/// `objects/info/alternates`, `shallow`, `info/grafts` — must be regular files (or absent); a
/// repository where one is not is never handed to git, and the note says which file it is.
enum GitDirectory {
    enum Check: Equatable {
        /// No `.git` in the folder or above it: not a repository, nothing is shipped.
        case none
        case usable
        case unsafe(String)
    }

    static let filesGitReads = ["HEAD", "config", "packed-refs", "index", "commondir", "objects/info/alternates",
                                "shallow", "info/grafts"]

    static func check(from folder: String) -> Check {
        // getenv and getcwd, not ProcessInfo's environment dictionary or URL standardization:
        // this runs before every git process of a lint (docs/benchmarks.md counts start-up).
        if let explicit = getenv("GIT_DIR").map({ String(cString: $0) }), !explicit.isEmpty {
            return checkFiles(in: explicit)
        }
        var directory = folder.isEmpty ? "." : folder
        if !directory.hasPrefix("/") {
            var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
            guard getcwd(&buffer, buffer.count) != nil else { return .usable }
            let current = buffer.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            directory = directory == "." ? current : current + "/" + directory
        }
        while true {
            let dotGit = directory == "/" ? "/.git" : directory + "/.git"
            var status = stat()
            if lstat(dotGit, &status) == 0 {
                return checkEntry(dotGit, in: directory)
            }
            guard errno == ENOENT || errno == ENOTDIR else {
                return .unsafe("'\(PrintableText.bounded(dotGit, limit: 1_000))' cannot be looked at: \(FileAccessError(path: dotGit, problem: .system(errno)).reason)")
            }
            if directory == "/" { return .none }
            // The parent, by the last slash (`..` in the path is looked up as the system does).
            while directory.count > 1 && directory.hasSuffix("/") { directory.removeLast() }
            guard let slash = directory.lastIndex(of: "/") else { return .none }
            directory = slash == directory.startIndex ? "/" : String(directory[..<slash])
        }
    }

    /// `.git` as a folder, or as a file `gitdir: PATH` (a worktree's or a submodule's).
    private static func checkEntry(_ dotGit: String, in directory: String) -> Check {
        var status = stat()
        guard stat(dotGit, &status) == 0 else {
            return .unsafe("'\(PrintableText.bounded(dotGit, limit: 1_000))' cannot be read: \(FileAccessError(path: dotGit, problem: .system(errno)).reason)")
        }
        if status.st_mode & S_IFMT == S_IFDIR { return checkFiles(in: dotGit) }
        let bytes: [UInt8]
        do {
            bytes = try RegularFileReader.bytes(atPath: dotGit, limit: 4_096)
        } catch {
            return .unsafe("'\(PrintableText.bounded(dotGit, limit: 1_000))' cannot be read: \(error.reason)")
        }
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("gitdir:") else { return .usable }  // git's own error will say what is wrong
        let target = text.dropFirst("gitdir:".count).trimmingCharacters(in: .whitespaces)
        let gitDirectory = target.hasPrefix("/") ? target : directory + "/" + target
        return checkFiles(in: gitDirectory)
    }

    private static func checkFiles(in gitDirectory: String) -> Check {
        var directories = [gitDirectory]
        // A linked worktree's common folder holds the config, the packed refs and the objects.
        if let common = try? RegularFileReader.bytes(atPath: gitDirectory + "/commondir", limit: 4_096) {
            let path = String(decoding: common, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !path.isEmpty { directories.append(path.hasPrefix("/") ? path : gitDirectory + "/" + path) }
        }
        for directory in directories {
            for name in filesGitReads {
                let path = directory + "/" + name
                var status = stat()
                guard stat(path, &status) == 0 else {
                    if errno == ENOENT || errno == ENOTDIR { continue }
                    return .unsafe("'\(PrintableText.bounded(path, limit: 1_000))' cannot be looked at: \(FileAccessError(path: path, problem: .system(errno)).reason)")
                }
                let kind = status.st_mode & S_IFMT
                guard kind != S_IFREG else { continue }
                let what = switch kind {
                case S_IFIFO: "a FIFO"
                case S_IFCHR: "a character device"
                case S_IFBLK: "a block device"
                case S_IFSOCK: "a socket"
                case S_IFDIR: "a folder"
                default: "not a regular file"
                }
                return .unsafe("'\(PrintableText.bounded(path, limit: 1_000))' is \(what), which git would wait on or read without end; git was not run")
            }
        }
        return .usable
    }
}

import DataModel
import Foundation

/// Where the shipped state of a bundle's versions is read from, for `shipped_version_modified`
/// and `momlint diff --git`.
public enum VersionBase: Hashable, Sendable {
    /// In a git work tree: `HEAD`, against both the working tree and the index (what a
    /// pre-commit hook needs). Outside git, or when a lock file exists beside the bundle, the
    /// lock file.
    case head
    /// A revision given with `--since` (in CI, e.g. the pull request's target branch).
    case revision(String)
    /// Never compare (`--since none`).
    case none
}

/// What a base holds of one version's `contents`.
public struct BaseContents: Sendable {
    /// The base's bytes.
    public var bytes: [UInt8]
    /// How findings name the base: `HEAD`, the revision, or the lock file's name.
    public var name: String
    /// What to compare with the base instead of the working tree: the staged file, when the
    /// index holds an edit the working tree does not. Nil: the working tree.
    public var stagedBytes: [UInt8]?

    public init(bytes: [UInt8], name: String, stagedBytes: [UInt8]? = nil) {
        self.bytes = bytes
        self.name = name
        self.stagedBytes = stagedBytes
    }
}

/// Reads a file as a git revision or a versions lock file holds it. Runs `git` as a child process
/// (nothing is written); a folder outside any git work tree has no git base.
public enum ShippedVersions {
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The versions lock file of a bundle: `Model.xcdatamodeld.momlint-lock.json`, beside it.
    public static func lockFilePath(forBundle bundle: String) -> String {
        var trimmed = bundle
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed.removeLast() }
        return trimmed + ".momlint-lock.json"
    }

    /// The base of `file` (a version's `contents`): from the bundle's lock file when there is
    /// one, else from git at `base`. Nil when the base does not hold the file (a version added
    /// since) or there is no base at all.
    public static func contents(of file: String, bundle: String, versionName: String,
                                base: VersionBase) throws(Failure) -> [BaseContents] {
        if base == .none { return [] }
        let lock = lockFilePath(forBundle: bundle)
        if case .head = base, FileManager.default.fileExists(atPath: lock) {
            let locked = try VersionsLock.read(from: lock)
            guard let text = locked.versions.first(where: { $0.name == versionName })?.contents else { return [] }
            return [BaseContents(bytes: Array(text.utf8), name: (lock as NSString).lastPathComponent)]
        }
        let folder = (file as NSString).deletingLastPathComponent
        let name = (file as NSString).lastPathComponent
        if case .head = base {
            // The committed file, compared with the working tree (the caller's model) and, when
            // the index differs from both, with the staged file too. One git process answers
            // for both (a lint of a small bundle is mostly waiting for git otherwise); outside a
            // work tree it fails, as the `./` paths need one, and there is no base.
            guard let blobs = showAll(["HEAD:./\(name)", ":./\(name)"], in: folder), let committed = blobs[0] else {
                return []
            }
            var result = [BaseContents(bytes: committed, name: "HEAD")]
            let working = FileManager.default.contents(atPath: file).map(Array.init)
            if let staged = blobs[1], staged != committed, staged != working {
                result.append(BaseContents(bytes: committed, name: "HEAD (in the index)", stagedBytes: staged))
            }
            return result
        }
        guard isInsideWorkTree(folder) else { return [] }
        switch base {
        case .head:
            return []  // answered above
        case .revision(let revision):
            guard git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], in: folder) != nil else {
                throw Failure(description: "'\(revision)' is not a commit in the git repository of \(folder)")
            }
            guard let bytes = show("\(revision):./\(name)", in: folder) else { return [] }
            return [BaseContents(bytes: bytes, name: revision)]
        case .none:
            return []
        }
    }

    /// The file as `revision` holds it (`momlint diff --git`). Throws when the path is not in a
    /// git work tree or the revision is not a commit; nil when the commit has no such file.
    public static func committedContents(of file: String, at revision: String) throws(Failure) -> [UInt8]? {
        let folder = (file as NSString).deletingLastPathComponent
        let name = (file as NSString).lastPathComponent
        guard isInsideWorkTree(folder.isEmpty ? "." : folder) else {
            throw Failure(description: "\(file) is not in a git work tree")
        }
        guard git(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], in: folder.isEmpty ? "." : folder) != nil else {
            throw Failure(description: "'\(revision)' is not a commit")
        }
        return show("\(revision):./\(name)", in: folder.isEmpty ? "." : folder)
    }

    static func isInsideWorkTree(_ folder: String) -> Bool {
        git(["rev-parse", "--is-inside-work-tree"], in: folder).map { String(decoding: $0, as: UTF8.self) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) == "true"
    }

    /// The raw bytes of a blob. `cat-file` applies no textconv driver, unlike `git show` for a
    /// blob: with `momlint print` set up as the textconv of `contents` files (docs/migrations.md),
    /// `git show` would hand back the printed text, not the XML.
    private static func show(_ object: String, in folder: String) -> [UInt8]? {
        git(["cat-file", "blob", object], in: folder)
    }

    /// The raw bytes of several blobs from one `git cat-file --batch` (which, like `cat-file
    /// blob`, applies no textconv): one entry per object, nil for an object git does not have.
    /// Nil when git fails (not a work tree, not installed).
    static func showAll(_ objects: [String], in folder: String) -> [[UInt8]?]? {
        // Names are one per line: a name with a line break cannot be asked this way.
        guard !objects.contains(where: { $0.contains("\n") }),
              let output = git(["cat-file", "--batch"], in: folder,
                               input: Array((objects.joined(separator: "\n") + "\n").utf8))
        else { return nil }
        // Each answer: "<oid> <type> <size>\n<size bytes>\n", or "<name> missing\n" (or
        // "ambiguous"): https://git-scm.com/docs/git-cat-file#_batch_output
        var blobs: [[UInt8]?] = []
        var position = 0
        for _ in objects {
            guard let lineEnd = output[position...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
            let header = output[position..<lineEnd].split(separator: UInt8(ascii: " "))
            position = lineEnd + 1
            guard header.count == 3, let size = Int(String(decoding: header[2], as: UTF8.self)) else {
                blobs.append(nil)  // missing or ambiguous: nothing but the header line
                continue
            }
            guard size >= 0, position + size <= output.count else { return nil }
            blobs.append(String(decoding: header[1], as: UTF8.self) == "blob" ? Array(output[position..<position + size]) : nil)
            position += size + 1
        }
        return blobs
    }

    /// Runs git in `folder`; its standard output, or nil when it fails or is not installed.
    /// `input`, when given, is its standard input (at most a few KiB: it is written before git starts).
    static func git(_ arguments: [String], in folder: String, input: [UInt8]? = nil) -> [UInt8]? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", folder] + arguments
        // Reading must not take the index lock a pre-commit hook's own git process may hold.
        var environment = ProcessInfo.processInfo.environment
        environment["GIT_OPTIONAL_LOCKS"] = "0"
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        if let input {
            // Written whole before git starts, while this process still holds the reading end:
            // a git that exits without reading cannot kill momlint with SIGPIPE. A pipe holds
            // 64 KiB; the input is a few object names.
            let inputPipe = Pipe()
            do {
                try inputPipe.fileHandleForWriting.write(contentsOf: input)
                try inputPipe.fileHandleForWriting.close()
            } catch {
                return nil
            }
            process.standardInput = inputPipe
        } else {
            process.standardInput = FileHandle.nullDevice
        }
        do {
            try process.run()
        } catch {
            return nil
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return process.terminationStatus == 0 ? Array(data) : nil
    }
}

/// The lock file `momlint versions --lock` writes: every version's `contents` as it was when
/// the versions shipped, for projects that check shipped versions without git.
public struct VersionsLock: Codable, Sendable {
    public struct Version: Codable, Sendable {
        public var name: String
        public var contents: String

        public init(name: String, contents: String) {
            self.name = name
            self.contents = contents
        }
    }

    public static let schemaVersion = 1
    public var schemaVersion: Int
    public var bundle: String
    public var versions: [Version]

    public init(bundle: String, versions: [Version]) {
        schemaVersion = Self.schemaVersion
        self.bundle = bundle
        self.versions = versions
    }

    public static func read(from path: String) throws(ShippedVersions.Failure) -> VersionsLock {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShippedVersions.Failure(description: "\(path): cannot read the versions lock file")
        }
        do {
            let lock = try JSONDecoder().decode(VersionsLock.self, from: data)
            guard lock.schemaVersion == schemaVersion else {
                throw ShippedVersions.Failure(description:
                    "\(path): versions lock schemaVersion \(lock.schemaVersion) is not supported (expected \(schemaVersion))")
            }
            return lock
        } catch let failure as ShippedVersions.Failure {
            throw failure
        } catch {
            throw ShippedVersions.Failure(description: "\(path): not a momlint versions lock file (\(error))")
        }
    }

    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self) + Data("\n".utf8)
    }
}

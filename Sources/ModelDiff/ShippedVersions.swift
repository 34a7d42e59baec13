import DataModel
import VersionHashes
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

extension VersionBase {
    /// The base `--since` or `migration.since` names: `none`, `HEAD`, or any other revision
    /// (a branch, a tag, a commit, `HEAD~2`), which git resolves when the base is read. Throws
    /// for text that cannot be a revision and that git would misread: nothing, a line break or
    /// other control character, or a leading `-`, which git takes for an option.
    public init(argument: String) throws(InvalidVersionBase) {
        switch argument {
        case "none": self = .none
        case "HEAD": self = .head
        default:
            if argument.trimmingCharacters(in: .whitespaces).isEmpty {
                throw InvalidVersionBase(argument: argument, problem: "is empty")
            }
            if argument.hasPrefix("-") {
                throw InvalidVersionBase(argument: argument, problem: "starts with '-', which git reads as an option")
            }
            if argument.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
                throw InvalidVersionBase(argument: argument, problem: "holds a control character")
            }
            self = .revision(argument)
        }
    }
}

/// A `--since` value that cannot name a revision.
public struct InvalidVersionBase: Error, Hashable, Sendable, CustomStringConvertible {
    public var argument: String
    /// Lowercase, e.g. "is empty".
    public var problem: String

    public var description: String {
        PrintableText.escaped("'\(argument)' is not a git revision: it \(problem); "
            + "give a branch, tag or commit, 'HEAD', or 'none'")
    }
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
    /// True when `bytes` are the working tree's file byte for byte (known for git `HEAD`, which
    /// reads the working file anyway): the version as loaded is the base, with no second parse.
    public var equalsWorkingTree = false
    /// The entity version hashes the base records (a lock file since schemaVersion 2); nil when
    /// they are to be computed from `bytes`. A lock without text has empty `bytes`.
    public var entityHashes: [String: VersionHash]?
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

    /// The base of one bundle's versions, decided once for the bundle: its lock file (with
    /// `.head`, when one exists beside it), else git at `base`. Nil when there is no base: `.none`,
    /// or a bundle outside any git work tree. Throws when the lock file cannot be read or the
    /// revision is not a commit.
    ///
    /// With `.head`, `reads` — git processes started when the bundles were found
    /// (`ShippedVersionReads`) — is asked first.
    public static func base(ofBundle bundle: String, at base: VersionBase,
                            reads: ShippedVersionReads? = nil) throws(Failure) -> BundleBase? {
        if base == .none { return nil }
        let lock = lockFilePath(forBundle: bundle)
        if case .head = base, FileManager.default.fileExists(atPath: lock) {
            return BundleBase(source: .lock(try VersionsLock.read(from: lock), name: (lock as NSString).lastPathComponent))
        }
        let folder = bundle.isEmpty ? "." : bundle
        switch base {
        case .head:
            // Not asked whether this is a work tree: each version's one `cat-file --batch` fails
            // outside one, which is the same "nothing shipped" (a lint of a small bundle is
            // mostly waiting for git, one process each).
            return BundleBase(source: .head(reads.map { (reads: $0, bundle: bundle) }))
        case .revision(let revision):
            guard isInsideWorkTree(folder) else { return nil }
            return BundleBase(source: .revision(try GitRevision(
                revision, in: folder, notACommit: "'\(revision)' is not a commit in the git repository of \(folder)")))
        case .none:
            return nil
        }
    }

    /// The file as `revision` holds it (`momlint diff --git`). Throws when the path is not in a
    /// git work tree or the revision is not a commit; nil when the commit has no such file.
    public static func committedContents(of file: String, at revision: String) throws(Failure) -> [UInt8]? {
        let folder = ModelPaths.parent(of: file)
        guard isInsideWorkTree(folder) else {
            throw Failure(description: "\(file) is not in a git work tree")
        }
        return try GitRevision(revision, in: folder, notACommit: "'\(revision)' is not a commit")
            .contents(of: file)
    }

    /// Every file under `folder` whose name ends with `suffix` (e.g. ".swift"), as `base` holds it
    /// (`HEAD` or a revision; the working tree is compared with it, not the index): each path as
    /// the working tree would spell it (`folder` + the path below it) with its bytes. Nil when
    /// there is no base: `.none`, or `folder` outside any git work tree. Throws when the revision
    /// is not a commit. (A SwiftData folder's shipped versions are spread over its Swift files.)
    public static func committedFiles(under folder: String, endingWith suffix: String,
                                      at base: VersionBase) throws(Failure) -> (name: String, files: [(path: String, bytes: [UInt8])])? {
        let revisionName: String
        switch base {
        case .none: return nil
        case .head: revisionName = "HEAD"
        case .revision(let revision): revisionName = revision
        }
        let directory = folder.isEmpty ? "." : folder
        guard isInsideWorkTree(directory) else { return nil }
        // A work tree with no commit yet has nothing shipped.
        if case .head = base, GitProcess.run(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], in: directory) == nil {
            return nil
        }
        let revision = try GitRevision(revisionName, in: directory,
                                       notACommit: "'\(revisionName)' is not a commit in the git repository of \(directory)")
        // Paths relative to the folder (git's default in a subdirectory), NUL-separated.
        guard let listing = GitProcess.run(["ls-tree", "-r", "-z", "--name-only", revision.revision, "--", "."], in: directory)
        else { return (revisionName, []) }
        let paths = listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasSuffix(suffix) }
        guard !paths.isEmpty else { return (revisionName, []) }
        let blobs = showAll(paths.map { "\(revision.revision):./\($0)" }, in: directory) ?? []
        let prefix = folder.isEmpty || folder.hasSuffix("/") ? folder : folder + "/"
        return (revisionName, zip(paths, blobs).compactMap { path, blob in blob.map { (prefix + path, $0) } })
    }

    /// A revision verified once to be a commit, whose files are then read as blobs.
    struct GitRevision: Sendable {
        let revision: String

        init(_ revision: String, in folder: String, notACommit: String) throws(Failure) {
            guard GitProcess.run(["rev-parse", "--verify", "--quiet", revision + "^{commit}"], in: folder) != nil else {
                throw Failure(description: notACommit)
            }
            self.revision = revision
        }

        /// The file (a path in a git work tree) as the revision holds it; nil when it has none.
        /// `cat-file` applies no textconv driver, unlike `git show` for a blob: with `momlint print`
        /// set up as the textconv of `contents` files (docs/migrations.md), `git show` would hand
        /// back the printed text, not the XML.
        func contents(of file: String) -> [UInt8]? {
            GitProcess.run(["cat-file", "blob", "\(revision):./\((file as NSString).lastPathComponent)"],
                           in: ModelPaths.parent(of: file))
        }
    }

    /// Which of `paths` (relative to `folder`, taken literally) `HEAD`'s tree lists, from one
    /// `git ls-tree`, which reads trees only: a file is listed whether or not git still has its
    /// object. Empty when there are none to ask about or git fails (no `HEAD`: nothing listed).
    static func listedInHEAD(_ paths: [String], in folder: String) -> Set<String> {
        guard !paths.isEmpty,
              let listing = GitProcess.run(["--literal-pathspecs", "ls-tree", "-z", "--name-only", "HEAD", "--"] + paths, in: folder)
        else { return [] }
        return Set(listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) })
    }

    static func isInsideWorkTree(_ folder: String) -> Bool {
        GitProcess.run(["rev-parse", "--is-inside-work-tree"], in: folder).map { String(decoding: $0, as: UTF8.self) }?
            .trimmingCharacters(in: .whitespacesAndNewlines) == "true"
    }

    /// The raw bytes of several blobs from one `git cat-file --batch` (which, like `cat-file
    /// blob`, applies no textconv): one entry per object, nil for an object git does not have.
    /// Nil when git fails (not a work tree, not installed).
    static func showAll(_ objects: [String], in folder: String) -> [[UInt8]?]? {
        startShowingAll(objects, in: folder).flatMap { blobs(in: $0.finish(), for: objects) }
    }

    /// `showAll`'s git process, started; `blobs(in:for:)` reads its output. Nil when the
    /// objects cannot be asked this way or git cannot be started.
    static func startShowingAll(_ objects: [String], in folder: String) -> GitProcess.Running? {
        // Names are one per line: a name with a line break cannot be asked this way.
        guard !objects.contains(where: { $0.contains("\n") }) else { return nil }
        return GitProcess.start(["cat-file", "--batch"], in: folder,
                                input: Array((objects.joined(separator: "\n") + "\n").utf8),
                                objectLimit: GitProcess.BatchObjectLimit(maximumObjectBytes: LoadLimits().maximumFileBytes))
    }

    /// The blobs of `cat-file --batch`'s `output` for `objects`, as `showAll` gives them.
    static func blobs(in output: [UInt8]?, for objects: [String]) -> [[UInt8]?]? {
        guard let output else { return nil }
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
}

/// Where one bundle's shipped versions are read from, decided once for the bundle
/// (`ShippedVersions.base(ofBundle:at:)`), so each version costs only the reads of its own file.
public struct BundleBase: Sendable {
    enum Source: Sendable {
        case lock(VersionsLock, name: String)
        /// With the reads started for the bundle, if any.
        case head((reads: ShippedVersionReads, bundle: String)?)
        case revision(ShippedVersions.GitRevision)
    }

    let source: Source

    /// What reading the base of one version found: its contents, or why it could not be read.
    public struct Read: Sendable {
        /// What the base holds of the version's `contents`: nothing when it does not hold the
        /// version (added since). With git `HEAD`, the committed file, compared with the working
        /// tree (the caller's model) and, when the index differs from both, with the staged file
        /// too.
        public var contents: [BaseContents]
        /// Why the base could not be read, in words (git failed, timed out, was not installed, or
        /// the repository holds a FIFO where git reads); nil when it was read or there is none.
        public var failure: String?
    }

    /// What the base holds of `file` (the `contents` of version `versionName`), with the reason
    /// when the base could not be read.
    public func read(of file: String, versionName: String) -> Read {
        switch source {
        case .lock(let lock, let name):
            guard let locked = lock.versions.first(where: { $0.name == versionName }) else { return Read(contents: []) }
            return Read(contents: [BaseContents(bytes: Array((locked.contents ?? "").utf8), name: name, entityHashes: locked.entityHashes)])
        case .head(let started):
            let answer = started.flatMap { $0.reads.answer(forVersion: versionName, inBundle: $0.bundle) }
                ?? Self.committedAndStaged(file)
            let committed: [UInt8], staged: [UInt8]?
            switch answer {
            case .gitFailed(let reason):
                return Read(contents: [], failure: reason)
            case .objectMissing:
                return Read(contents: [], failure: "HEAD lists '\(PrintableText.bounded(file, limit: 1_000))' but git does not have its object (a damaged or partial clone)")
            case .blobs(nil, _):
                return Read(contents: [])  // added since HEAD
            case .blobs(let inHEAD?, let inIndex):
                (committed, staged) = (inHEAD, inIndex)
            }
            let working = FileManager.default.contents(atPath: file).map(Array.init)
            var result = [BaseContents(bytes: committed, name: "HEAD", equalsWorkingTree: committed == working)]
            if let staged, staged != committed, staged != working {
                result.append(BaseContents(bytes: committed, name: "HEAD (in the index)", stagedBytes: staged))
            }
            return Read(contents: result)
        case .revision(let revision):
            return Read(contents: revision.contents(of: file).map { [BaseContents(bytes: $0, name: revision.revision)] } ?? [])
        }
    }

    /// The committed and the staged `file`, from git processes of its own.
    private static func committedAndStaged(_ file: String) -> ShippedVersionReads.Answer {
        let name = (file as NSString).lastPathComponent, folder = ModelPaths.parent(of: file)
        guard let git = ShippedVersions.startShowingAll(ShippedVersionReads.objectNames(of: [name]), in: folder)
        else { return .gitFailed(nil) }
        return ShippedVersionReads.answers(git, for: [name], in: folder)[0]
    }
}

/// The lock file `momlint versions --lock` writes: what Core Data checks of every version as it
/// shipped — each entity's version hash and the model's digest (docs/version-hashes.md) — and
/// the version's `contents`, which lets findings say what changed. `shipped_version_modified`
/// decides by the hashes. Files written before the hashes (schemaVersion 1, `contents` only)
/// are still read: their hashes are computed from the text.
public struct VersionsLock: Codable, Sendable {
    public struct Version: Codable, Sendable {
        public var name: String
        /// The version's `contents` as locked; required in schemaVersion 1, optional since.
        public var contents: String?
        /// Entity name → base64 version hash, as a store this version wrote keeps them
        /// (`NSStoreModelVersionHashes`). Absent in schemaVersion 1.
        public var versionHashes: [String: String]?
        /// `NSStoreModelVersionHashesDigest`, base64; absent when some entity has no hash.
        public var versionHashesDigest: String?

        public init(name: String, contents: String?, versionHashes: [String: String]? = nil,
                    versionHashesDigest: String? = nil) {
            self.name = name
            self.contents = contents
            self.versionHashes = versionHashes
            self.versionHashesDigest = versionHashesDigest
        }

        /// The locked hashes, decoded; nil when the lock holds none (schemaVersion 1).
        public var entityHashes: [String: VersionHash]? {
            guard let versionHashes else { return nil }
            var result: [String: VersionHash] = [:]
            for (name, text) in versionHashes {
                guard let hash = VersionHash(base64: text) else { return nil }
                result[name] = hash
            }
            return result
        }
    }

    public static let schemaVersion = 2
    /// Every schemaVersion this build reads.
    public static let readableSchemaVersions = [1, 2]
    public var schemaVersion: Int
    public var bundle: String
    public var versions: [Version]

    public init(bundle: String, versions: [Version]) {
        schemaVersion = Self.schemaVersion
        self.bundle = bundle
        self.versions = versions
    }

    /// The lock of one version: its hashes (computed) and its text.
    public static func version(_ model: Model, contents: String) -> Version {
        version(named: model.version.name, hashes: VersionHasher.hashes(of: model), contents: contents)
    }

    /// The lock of one version whose hashes are known (no `contents` for a SwiftData version).
    public static func version(named name: String, hashes: ModelVersionHashes, contents: String?) -> Version {
        Version(name: name, contents: contents, versionHashes: hashes.entityHashesByName.mapValues(\.base64),
                versionHashesDigest: hashes.digest?.base64)
    }

    public static func read(from path: String) throws(ShippedVersions.Failure) -> VersionsLock {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ShippedVersions.Failure(description: "\(path): cannot read the versions lock file")
        }
        do {
            let lock = try JSONDecoder().decode(VersionsLock.self, from: data)
            guard readableSchemaVersions.contains(lock.schemaVersion) else {
                throw ShippedVersions.Failure(description:
                    "\(path): versions lock schemaVersion \(lock.schemaVersion) is not supported (expected one of "
                    + "\(readableSchemaVersions.map(String.init).joined(separator: ", ")))")
            }
            for version in lock.versions {
                if version.contents == nil && version.versionHashes == nil {
                    throw ShippedVersions.Failure(description:
                        "\(path): version '\(version.name)' has neither contents nor versionHashes")
                }
                if version.versionHashes != nil && version.entityHashes == nil {
                    throw ShippedVersions.Failure(description:
                        "\(path): version '\(version.name)' has a version hash that is not base64 of 32 bytes")
                }
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

import Foundation

/// The committed and staged `contents` of bundles' older versions, read by a git process started
/// the moment the loader finds each bundle (`ModelLoader.bundleFound`).
///
/// Checking shipped versions against git `HEAD` costs one `git cat-file --batch` per bundle, and
/// git takes milliseconds to start. Started after the lint, as it was, that was a quarter of a small
/// versioned bundle's whole run spent waiting; started when the bundle is found, git runs on the
/// other core while momlint parses and lints, and its output is collected when the versions are
/// compared. `BundleBase` takes the answers from here, and asks git itself for any version no
/// read was started for.
public final class ShippedVersionReads: @unchecked Sendable {
    /// What a read found for one version's `contents`.
    enum Answer {
        /// Git could not be asked: nothing is shipped. The reason, in words, when there is one
        /// to give (git failed in a repository); nil outside any repository.
        case gitFailed(String?)
        /// The file in `HEAD` and in the index; nil where git has none (for `HEAD`: the file was
        /// added since).
        case blobs(committed: [UInt8]?, staged: [UInt8]?)
        /// `HEAD` lists the file but git does not have its object (a damaged or partial clone).
        case objectMissing
    }

    /// One bundle's read: its git process, then, once collected, an answer per version.
    private final class Read: @unchecked Sendable {
        let versions: [String]
        /// The bundle folder git runs in.
        let folder: String
        let git: GitProcess.Running
        var answers: [String: Answer]?

        init(versions: [String], folder: String, git: GitProcess.Running) {
            self.versions = versions
            self.folder = folder
            self.git = git
        }
    }

    /// Reads started at most, each one git process running beside the lint.
    static let maximumStarted = 8

    private let lock = NSLock()
    private var reads: [String: Read] = [:]

    public init() {}

    /// Starts git reading what `HEAD` and the index hold of the `contents` of every version of
    /// `bundle` other than `current`, in one process, and returns while it runs. Nothing is
    /// started for a bundle already started, one with a versions lock file (the base is then
    /// the lock file), beyond `maximumStarted` bundles, or when git cannot be asked this way
    /// (a line break in a name, more names than its input pipe takes at once): `BundleBase`
    /// asks git per version then, as before.
    public func start(bundle: String, versionNames: [String], current: String) {
        let versions = versionNames.filter { $0 != current }
        guard !versions.isEmpty,
              !FileManager.default.fileExists(atPath: ShippedVersions.lockFilePath(forBundle: bundle))
        else { return }
        lock.lock()
        defer { lock.unlock() }
        // A search that finds many bundles starts only the first few at once; the rest are read
        // when compared, one git process at a time.
        let folder = bundle.isEmpty ? "." : bundle
        guard reads[bundle] == nil, reads.count < Self.maximumStarted,
              let git = ShippedVersions.startShowingAll(Self.objectNames(of: versions.map(Self.contentsPath)), in: folder)
        else { return }
        reads[bundle] = Read(versions: versions, folder: folder, git: git)
    }

    /// The answer for version `versionName` of `bundle`, waiting for its git process the first
    /// time; nil when no read was started that covers it.
    func answer(forVersion versionName: String, inBundle bundle: String) -> Answer? {
        lock.lock()
        defer { lock.unlock() }
        guard let read = reads[bundle] else { return nil }
        if read.answers == nil {
            let answers = Self.answers(read.git, for: read.versions.map(Self.contentsPath), in: read.folder)
            read.answers = Dictionary(uniqueKeysWithValues: zip(read.versions, answers))
        }
        return read.answers?[versionName]
    }

    /// What git answered for each of `files` (paths below `folder`), collected from `git`, a
    /// `cat-file --batch` asked for `objectNames(of: files)`. `cat-file` says "missing" both for a
    /// file `HEAD` does not hold (added since) and for one whose object is gone; a tree names a
    /// file whether or not git has its object, so one `git ls-tree` over the missing files tells
    /// the two apart.
    static func answers(_ git: GitProcess.Running, for files: [String], in folder: String) -> [Answer] {
        let output = git.finish()
        guard let blobs = ShippedVersions.blobs(in: output, for: objectNames(of: files)) else {
            let failure = output == nil ? git.failure : "git's answer could not be read"
            return files.map { _ in .gitFailed(failure) }
        }
        let listed = ShippedVersions.listedInHEAD(files.indices.filter { blobs[2 * $0] == nil }.map { files[$0] }, in: folder)
        return files.indices.map { index in
            listed.contains(files[index]) ? .objectMissing : .blobs(committed: blobs[2 * index], staged: blobs[2 * index + 1])
        }
    }

    /// Each file's committed and staged object, for paths relative to the folder git is run in.
    static func objectNames(of files: [String]) -> [String] {
        files.flatMap { ["HEAD:./\($0)", ":./\($0)"] }
    }

    /// A version's `contents`, relative to its bundle folder.
    private static func contentsPath(ofVersion version: String) -> String {
        version + ".xcdatamodel/contents"
    }
}

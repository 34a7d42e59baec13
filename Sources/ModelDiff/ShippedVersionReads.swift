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
        /// The file in `HEAD` and in the index; nil where git has none.
        case blobs(committed: [UInt8]?, staged: [UInt8]?)
    }

    /// One bundle's read: its git process, then, once collected, an answer per version.
    private final class Read: @unchecked Sendable {
        let versions: [String]
        let git: GitProcess.Running
        var answers: [String: Answer]?

        init(versions: [String], git: GitProcess.Running) {
            self.versions = versions
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
        guard reads[bundle] == nil, reads.count < Self.maximumStarted,
              let git = ShippedVersions.startShowingAll(Self.objectNames(of: versions), in: bundle.isEmpty ? "." : bundle)
        else { return }
        reads[bundle] = Read(versions: versions, git: git)
    }

    /// The answer for version `versionName` of `bundle`, waiting for its git process the first
    /// time; nil when no read was started that covers it.
    func answer(forVersion versionName: String, inBundle bundle: String) -> Answer? {
        lock.lock()
        defer { lock.unlock() }
        guard let read = reads[bundle] else { return nil }
        if read.answers == nil {
            let output = read.git.finish()
            let blobs = ShippedVersions.blobs(in: output, for: Self.objectNames(of: read.versions))
            let failure = output == nil ? read.git.failure : "git's answer could not be read"
            read.answers = Dictionary(uniqueKeysWithValues: read.versions.enumerated().map { index, version in
                (version, blobs.map { .blobs(committed: $0[2 * index], staged: $0[2 * index + 1]) } ?? .gitFailed(failure))
            })
        }
        return read.answers?[versionName]
    }

    /// Each version's committed and staged `contents`, relative to the bundle folder, which git
    /// is run in.
    private static func objectNames(of versions: [String]) -> [String] {
        versions.flatMap { ["HEAD:./\($0).xcdatamodel/contents", ":./\($0).xcdatamodel/contents"] }
    }
}

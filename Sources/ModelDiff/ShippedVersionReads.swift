import Foundation

/// The committed and staged `contents` of bundles' older versions, read by a git process started
/// the moment the loader finds each bundle (`ModelLoader.bundleFound`).
///
/// Checking shipped versions against git `HEAD` costs one `git cat-file --batch` per bundle, 2 to
/// 3 ms of git starting up. Started after the lint, as it was, that was a quarter of a small
/// versioned bundle's whole run spent waiting; started when the bundle is found, git runs on the
/// other core while momlint parses and lints, and its output is collected when the versions are
/// compared. `BundleBase` takes the answers from here, and asks git itself for any version no
/// read was started for.
public final class ShippedVersionReads: @unchecked Sendable {
    /// What a read found for one version's `contents`.
    enum Answer {
        /// Git could not be asked (not a work tree, not installed): nothing is shipped.
        case gitFailed
        /// The file in `HEAD` and in the index; nil where git has none.
        case blobs(committed: [UInt8]?, staged: [UInt8]?)
    }

    /// One bundle's read: the git process, and its answers once collected.
    private final class Read: @unchecked Sendable {
        let objects: [String]
        let git: GitProcess.Running?
        /// By object name (`HEAD:./Model.xcdatamodel/contents`); `.some(nil)` when git failed.
        var blobs: [String: [UInt8]?]??

        init(objects: [String], git: GitProcess.Running?) {
            self.objects = objects
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
    /// the lock file), or one whose names cannot be asked in one batch (a line break in a name,
    /// or more names than git's input pipe takes at once), nor beyond `maximumStarted` bundles:
    /// `BundleBase` asks git per version then, as before.
    public func start(bundle: String, versionNames: [String], current: String) {
        let others = versionNames.filter { $0 != current }
        guard !others.isEmpty, !others.contains(where: { $0.contains("\n") }),
              !FileManager.default.fileExists(atPath: ShippedVersions.lockFilePath(forBundle: bundle))
        else { return }
        let objects = others.flatMap { [Self.committedName(ofVersion: $0), Self.stagedName(ofVersion: $0)] }
        guard objects.reduce(0, { $0 + $1.utf8.count + 1 }) <= GitProcess.maximumInputBytes else { return }
        lock.lock()
        defer { lock.unlock() }
        // A search that finds many bundles starts only the first few at once; the rest are read
        // when compared, one git process at a time.
        guard reads[bundle] == nil, reads.count < Self.maximumStarted else { return }
        reads[bundle] = Read(objects: objects,
                             git: ShippedVersions.startShowingAll(objects, in: bundle.isEmpty ? "." : bundle))
    }

    /// The answer for version `versionName` of `bundle`, waiting for its git process the first
    /// time; nil when no read was started that covers it.
    func answer(forVersion versionName: String, inBundle bundle: String) -> Answer? {
        lock.lock()
        defer { lock.unlock() }
        guard let read = reads[bundle] else { return nil }
        if read.blobs == nil {
            read.blobs = .some(ShippedVersions.blobs(in: read.git?.finish(), for: read.objects)
                .map { Dictionary(uniqueKeysWithValues: zip(read.objects, $0)) })
        }
        guard let blobs = read.blobs ?? nil else { return .gitFailed }
        guard let committed = blobs[Self.committedName(ofVersion: versionName)],
              let staged = blobs[Self.stagedName(ofVersion: versionName)] else { return nil }
        return .blobs(committed: committed, staged: staged)
    }

    /// Object names relative to the bundle folder, which git is run in.
    private static func committedName(ofVersion name: String) -> String { "HEAD:./\(name).xcdatamodel/contents" }
    private static func stagedName(ofVersion name: String) -> String { ":./\(name).xcdatamodel/contents" }
}

import Foundation
import SafeFiles

/// Turns the paths a user passes into loaded models.
///
/// A path may be an `.xcdatamodeld` bundle, an `.xcdatamodel` folder, a `contents` file
/// (what a pre-commit hook passes), a bundle's `.xccurrentversion`, or any folder, which is
/// searched for bundles. A failure on one input never stops the others. What a path names, and
/// which version of a bundle is current, is found in `ModelLoader+Finding.swift`; reading it here.
public struct ModelLoader: Sendable {
    public var limits: LoadLimits
    /// Load every version of a bundle, not only the current one (`--all-versions`).
    public var loadsAllVersions: Bool
    /// Load a bundle's current version in place of an old version named directly (what `lint`
    /// does, since `pre-commit run --all-files` names every version). Off for commands that
    /// read the one version named (`export`, `graph`), and moot with `loadsAllVersions`.
    public var replacesOldVersionsWithCurrent: Bool
    /// Told of each bundle `load(paths:)` finds, itself or through a version or `contents` file
    /// named in it, before that version is parsed: its path, its version names, and the current
    /// one. `lint` starts reading the bundle's shipped versions from git here
    /// (`ShippedVersionReads`), so git runs while the models are parsed.
    public var bundleFound: (@Sendable (_ bundle: String, _ versionNames: [String], _ current: String) -> Void)?

    public init(limits: LoadLimits = .standard, loadsAllVersions: Bool = false, replacesOldVersionsWithCurrent: Bool = false) {
        self.limits = limits
        self.loadsAllVersions = loadsAllVersions
        self.replacesOldVersionsWithCurrent = replacesOldVersionsWithCurrent
    }

    /// Loads every model the paths name, in the order given; each `contents` file once.
    public func load(paths: [String]) -> LoadResult {
        var result = LoadResult()
        var loadedFiles: Set<String> = []
        for path in paths {
            let targets: [Target]
            do {
                targets = try self.targets(for: path)
            } catch {
                result.outcomes.append(.failure(error))
                continue
            }
            for target in targets {
                load(target, into: &result, skipping: &loadedFiles)
            }
        }
        return result
    }

    /// Parses one `contents` document held in memory. `file` is the name findings will show.
    /// `bytes` is taken rather than borrowed, so that the reader can let the file go as soon as it
    /// is parsed (see `ContentsReader.read`).
    public func model(fromContents bytes: consuming [UInt8], file: String, version: ModelVersion? = nil) throws(LoadError) -> Model {
        try checkPrologue(bytes, path: file)
        do {
            return try ContentsReader(file: file).read(
                consume bytes, version: version ?? Self.standaloneVersion,
                options: XMLEventParser.Options(allowsDocumentType: false, limits: limits))
        } catch {
            throw LoadError(xml: error, path: file)
        }
    }

    // MARK: Loading

    private func load(_ target: Target, into result: inout LoadResult, skipping loaded: inout Set<String>) {
        switch target {
        case .bundle(let path):
            loadBundle(path, into: &result, skipping: &loaded)
        case .versionFolder(let path):
            if redirectsOldVersion(folder: path, named: path, into: &result, skipping: &loaded) { return }
            loadVersionFolder(path, version: version(forFolder: path), into: &result, skipping: &loaded)
        case .contentsFile(let path):
            let folder = ModelPaths.parent(of: path)
            if folder.hasSuffix(".xcdatamodel"),
               redirectsOldVersion(folder: folder, named: path, into: &result, skipping: &loaded) { return }
            let version = folder.hasSuffix(".xcdatamodel") ? self.version(forFolder: folder)
                                                             : Self.standaloneVersion
            loadContents(path, version: version, into: &result, skipping: &loaded)
        case .unlistedFolder(let path, let error):
            result.outcomes.append(.failure(LoadError(path: path, reason: .unreadable(
                "\(error.reason); the models in this folder, if any, were not searched for"))))
        }
    }

    /// With `replacesOldVersionsWithCurrent`, a version of a bundle named directly (as
    /// pre-commit names every changed `contents`) that is not its current version is not linted on its own: old versions
    /// must never change, and the single-version rules judge only the model the app builds.
    /// Its bundle is linted instead (its current version, once), with a note; `--all-versions`
    /// lints it as named. True when the version was redirected.
    private func redirectsOldVersion(folder: String, named path: String,
                                     into result: inout LoadResult, skipping loaded: inout Set<String>) -> Bool {
        guard replacesOldVersionsWithCurrent && !loadsAllVersions,
              let bundle = Self.bundle(holding: folder), let current = currentVersionName(ofBundle: bundle)
        else { return false }
        let name = Self.versionName(fromFolderName: (folder as NSString).lastPathComponent)
        guard name != current else { return false }
        let bundleName = (bundle as NSString).lastPathComponent
        result.notes.append(LoadNote(path: path, message:
            "'\(name)' is not the current version of \(bundleName); linting the current version '\(current)' "
                + "instead (old versions are linted only with --all-versions)"))
        loadBundle(bundle, into: &result, skipping: &loaded)
        return true
    }

    private func loadBundle(_ bundle: String, into result: inout LoadResult, skipping loaded: inout Set<String>) {
        let versions = Self.versionFolderNames(in: bundle)
        guard !versions.isEmpty else {
            result.outcomes.append(.failure(LoadError(path: bundle, reason: .emptyBundle)))
            return
        }
        let (current, selection, notes, failure) = currentVersion(ofBundle: bundle, versions: versions)
        bundleFound?(bundle, versions, current)
        result.notes += notes
        if let failure { result.outcomes.append(.failure(failure)) }
        let chosen = loadsAllVersions ? versions : [current]
        for name in chosen {
            let version = ModelVersion(bundlePath: bundle, name: name, bundleVersionNames: versions,
                                       selection: name == current ? selection : .otherVersion)
            var read = LoadResult()
            loadVersionFolder(Self.join(bundle, name + ".xcdatamodel"), version: version,
                              into: &read, skipping: &loaded)
            // An older version in a format momlint cannot read (Xcode 3's binary format) is not an
            // error the user can fix: old versions must never change. Said, and left out. One that
            // is not well-formed is an error like any: Xcode builds every version of a bundle.
            if name != current, read.failures.count == 1, let failure = read.failures.first, read.models.isEmpty,
               failure.isFormatMomlintCannotRead {
                result.notes.append(LoadNote(path: failure.path, message:
                    "'\(name)' is an older version of \((bundle as NSString).lastPathComponent) and is not linted: "
                        + failure.problem))
                continue
            }
            result.outcomes += read.outcomes
            result.notes += read.notes
        }
    }

    /// Every version of `bundle`, as `load(paths: [bundle])` with `loadsAllVersions` gives them,
    /// without reading again what an earlier load read: a version in `loaded` (models of this
    /// bundle, matched by version name) is taken from there, and one named in `skipping` (its
    /// failure already reported) is left out. `.xccurrentversion` is read again to tell the
    /// current version, but its failure is reported only when no model in `loaded` came from
    /// loading the bundle itself, which reported it then. Notes are not repeated.
    public func loadAllVersions(ofBundle bundle: String, reusing loaded: [Model],
                                skipping skipped: Set<String> = []) -> LoadResult {
        var result = LoadResult()
        let versions = Self.versionFolderNames(in: bundle)
        guard !versions.isEmpty else { return result }
        let (current, selection, _, failure) = currentVersion(ofBundle: bundle, versions: versions)
        let bundleWasRead = loaded.contains { ![.namedDirectly, .standalone].contains($0.version.selection) }
        if let failure, !bundleWasRead { result.outcomes.append(.failure(failure)) }
        var read: Set<String> = []
        for name in versions where !skipped.contains(name) {
            let version = ModelVersion(bundlePath: bundle, name: name, bundleVersionNames: versions,
                                       selection: name == current ? selection : .otherVersion)
            if let model = loaded.first(where: { $0.version.name == name }) {
                result.outcomes.append(.model(model.version == version ? model : model.replacingVersion(with: version)))
            } else {
                loadVersionFolder(Self.join(bundle, name + ".xcdatamodel"), version: version, into: &result, skipping: &read)
            }
        }
        return result
    }

    private func loadVersionFolder(_ folder: String, version: ModelVersion,
                                   into result: inout LoadResult, skipping loaded: inout Set<String>) {
        let contents = Self.join(folder, "contents")
        let fileManager = FileManager.default
        guard fileManager.fileExists(atPath: contents) else {
            let legacy = fileManager.fileExists(atPath: Self.join(folder, "elements"))
                || fileManager.fileExists(atPath: Self.join(folder, "layout"))
            result.outcomes.append(.failure(LoadError(
                path: folder,
                reason: legacy ? .legacyBinaryFormat : .notAModel("the .xcdatamodel folder has no contents file"))))
            return
        }
        loadContents(contents, version: version, into: &result, skipping: &loaded)
    }

    private func loadContents(_ path: String, version: ModelVersion,
                              into result: inout LoadResult, skipping loaded: inout Set<String>) {
        let identity = canonicalPath(of: path) ?? path
        guard loaded.insert(identity).inserted else { return }
        do {
            let bytes = try readFile(path)
            result.outcomes.append(.model(try model(fromContents: consume bytes, file: path, version: version)))
        } catch {
            result.outcomes.append(.failure(error))
        }
    }

    /// The bundle information for a version folder named directly (not through its bundle).
    private func version(forFolder folder: String) -> ModelVersion {
        let name = Self.versionName(fromFolderName: (folder as NSString).lastPathComponent)
        guard let bundle = Self.bundle(holding: folder) else { return ModelVersion(
            bundlePath: nil, name: name, bundleVersionNames: [name], selection: .standalone) }
        let versionNames = Self.versionFolderNames(in: bundle)
        if let bundleFound { bundleFound(bundle, versionNames, currentVersionName(ofBundle: bundle) ?? name) }
        return ModelVersion(bundlePath: bundle, name: name, bundleVersionNames: versionNames, selection: .namedDirectly)
    }

    // MARK: Reading files

    /// The file's bytes. Only a regular file is read: a `contents` or `.xccurrentversion`
    /// committed as a symlink to `/dev/stdin`, a FIFO or `/dev/zero` is refused at once instead
    /// of waiting or reading forever (`RegularFileReader`).
    func readFile(_ path: String) throws(LoadError) -> [UInt8] {
        do {
            return try RegularFileReader.bytes(atPath: path, limit: limits.maximumFileBytes)
        } catch {
            switch error.problem {
            case .notARegularFile(.directory):
                throw LoadError(path: path, reason: .notAModel("expected a file, found a folder"))
            case .notARegularFile(let kind):
                throw LoadError(path: path, reason: .notARegularFile(kind.description))
            case .tooLarge(let bytes, let limit):
                throw LoadError(path: path, reason: .tooLarge(bytes: bytes, limit: limit))
            case .system(ENOENT):
                throw LoadError(path: path, reason: .notFound)
            case .system, .other:
                throw LoadError(path: path, reason: .unreadable(error.reason))
            }
        }
    }
    /// Rejects, with a precise reason, what libxml2 would only call "not well-formed".
    func checkPrologue(_ bytes: [UInt8], path: String) throws(LoadError) {
        guard bytes.count <= limits.maximumFileBytes else {
            throw LoadError(path: path, reason: .tooLarge(bytes: bytes.count, limit: limits.maximumFileBytes))
        }
        if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) {
            throw LoadError(path: path, reason: .emptyFile)
        }
        if bytes.starts(with: Array("bplist".utf8)) {
            throw LoadError(path: path, reason: .binaryPropertyList)
        }
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE])
            || (bytes.count > 1 && (bytes[0] == 0 || bytes[1] == 0)) {
            throw LoadError(path: path, line: 1, column: 1,
                            reason: .unreadable("the file is UTF-16 or binary; Xcode writes models as UTF-8 XML"))
        }
    }

    /// The version of a `contents` file outside any bundle.
    static let standaloneVersion = ModelVersion(bundlePath: nil, name: "", bundleVersionNames: [], selection: .standalone)
}

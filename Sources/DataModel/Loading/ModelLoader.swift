import Foundation
import SafeFiles

/// Turns the paths a user passes into loaded models.
///
/// A path may be an `.xcdatamodeld` bundle, an `.xcdatamodel` folder, a `contents` file
/// (what a pre-commit hook passes), a bundle's `.xccurrentversion`, or any folder, which is
/// searched for bundles. A failure on one input never stops the others.
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

    /// Folders a recursive search never enters: build output and dependencies.
    public static let skippedFolderNames: Set<String> = [
        ".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm",
    ]

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

    /// Tells `bundleFound` of every bundle of two or more versions that `paths` name directly
    /// (the bundle, one of its version folders, or a file in it), as `load(paths:)` will tell
    /// it, without reading a model. `lint` calls this before it builds its engine, so that git
    /// starts on a bundle's older versions as early as it can; `bundleFound` then hears of the
    /// same bundles again during `load`. A bundle of one version has no older version to read;
    /// folders to search are left to `load`, and a path that names nothing is skipped.
    public func announceVersionedBundles(named paths: [String]) {
        guard let bundleFound else { return }
        for path in paths {
            guard let targets = try? targets(for: path, searchingFolders: false) else { continue }
            for target in targets {
                // Spelled as `load` spells it: the path as named (perhaps with a final `/`), or
                // the bundle of the version folder named or holding the file named.
                let bundle: String?
                switch target {
                case .bundle(let path): bundle = path
                case .versionFolder(let folder): bundle = Self.bundle(holding: folder)
                case .contentsFile(let file):
                    let folder = Self.parentPath(of: file)
                    bundle = folder.hasSuffix(".xcdatamodel") ? Self.bundle(holding: folder) : nil
                case .unlistedFolder: bundle = nil
                }
                guard let bundle else { continue }
                let versions = Self.versionFolderNames(in: bundle)
                guard versions.count >= 2 else { continue }
                bundleFound(bundle, versions, currentVersion(ofBundle: bundle, versions: versions).name)
            }
        }
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

    // MARK: Finding the models a path names

    private enum Target {
        case bundle(String)
        case versionFolder(String)
        case contentsFile(String)
        /// A folder a search could not list (a path longer than PATH_MAX, no permission): said,
        /// since the models in it are not linted.
        case unlistedFolder(String, FileAccessError)
    }

    /// What a path names; a folder that is neither a bundle nor a version folder is searched
    /// for them, unless `searchingFolders` is false (then it names nothing).
    private func targets(for named: String, searchingFolders: Bool = true) throws(LoadError) -> [Target] {
        // `.` run inside a bundle or version folder: its name (and so what it is) is only in
        // the absolute path. Any other folder keeps the spelling the user gave (`lint .` in a
        // project shows `./App/…`).
        let absolute = ModelPaths.named(named)
        let path = ["xcdatamodeld", "xcdatamodel"].contains(ModelPaths.pathExtension(of: absolute)) ? absolute : named
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw LoadError(path: path, reason: .notFound)
        }
        if isDirectory.boolValue {
            switch ModelPaths.pathExtension(of: path) {
            case "xcdatamodeld": return [.bundle(path)]
            case "xcdatamodel": return [.versionFolder(path)]
            default:
                guard searchingFolders else { return [] }
                let found = searchFolder(path)
                guard !found.isEmpty else {
                    throw LoadError(path: path, reason: .notAModel(
                        "no .xcdatamodeld bundle or .xcdatamodel folder in this folder or below it"))
                }
                return found
            }
        }
        let parent = Self.parentPath(of: path)
        let parentExtension = ModelPaths.pathExtension(of: parent)
        switch ModelPaths.lastComponent(of: path) {
        case "contents":
            return [.contentsFile(path)]
        case ".xccurrentversion" where parentExtension == "xcdatamodeld":
            return [.bundle(parent)]
        case "elements" where parentExtension == "xcdatamodel",
             "layout" where parentExtension == "xcdatamodel":
            return [.versionFolder(parent)]
        default:
            throw LoadError(path: path, reason: .notAModel(
                "not a Core Data model: pass an .xcdatamodeld bundle, an .xcdatamodel folder, "
                    + "a model's contents file, or a folder to search"))
        }
    }

    /// Bundles and stand-alone version folders under `folder`, in path order (depth first,
    /// names in version order). Symbolic links to folders are not followed, so a link cycle
    /// cannot trap the search.
    private func searchFolder(_ folder: String) -> [Target] {
        enum Pending {
            case folder(String)
            case model(Target)
        }
        var found: [Target] = []
        var pending: [Pending] = [.folder(folder)]
        while let next = pending.popLast() {
            switch next {
            case .model(let target):
                found.append(target)
            case .folder(let current):
                let listing = FolderListing.listing(of: current)
                guard let entries = listing.entries else {
                    // A folder that vanished meanwhile holds nothing; any other failure is said.
                    if listing.errorCode != ENOENT && listing.errorCode != ENOTDIR {
                        found.append(.unlistedFolder(current, FileAccessError(path: current, problem: .system(listing.errorCode))))
                    }
                    continue
                }
                var children: [Pending] = []
                let folderNames = entries.filter { $0.kind == .folder && !Self.skippedFolderNames.contains($0.name) }.map(\.name)
                for name in folderNames.sorted(by: Self.versionOrder) {
                    let child = Self.join(current, name)
                    if name.hasSuffix(".xcdatamodeld") {
                        children.append(.model(.bundle(child)))
                    } else if name.hasSuffix(".xcdatamodel") {
                        children.append(.model(.versionFolder(child)))
                    } else {
                        children.append(.folder(child))
                    }
                }
                // A stack: push in reverse so the first name is handled first.
                pending.append(contentsOf: children.reversed())
            }
        }
        return found
    }

    // MARK: Loading

    private func load(_ target: Target, into result: inout LoadResult, skipping loaded: inout Set<String>) {
        switch target {
        case .bundle(let path):
            loadBundle(path, into: &result, skipping: &loaded)
        case .versionFolder(let path):
            if redirectsOldVersion(folder: path, named: path, into: &result, skipping: &loaded) { return }
            loadVersionFolder(path, version: version(forFolder: path, selection: nil),
                              into: &result, skipping: &loaded)
        case .contentsFile(let path):
            let folder = Self.parentPath(of: path)
            if folder.hasSuffix(".xcdatamodel"),
               redirectsOldVersion(folder: folder, named: path, into: &result, skipping: &loaded) { return }
            let version = folder.hasSuffix(".xcdatamodel") ? self.version(forFolder: folder, selection: nil)
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

    /// The version `loadBundle` would choose: the one `.xccurrentversion` names when the bundle
    /// holds it, else the highest version number. Nil for a bundle without versions.
    public func currentVersionName(ofBundle bundle: String) -> String? {
        let versions = Self.versionFolderNames(in: bundle)
        guard !versions.isEmpty else { return nil }
        return currentVersion(ofBundle: bundle, versions: versions).name
    }

    /// Which version of a bundle is current and why, with what reading `.xccurrentversion` gave
    /// to say: notes, and the failure when it cannot be read. `versions` is not empty.
    private func currentVersion(ofBundle bundle: String, versions: [String])
        -> (name: String, selection: ModelVersion.Selection, notes: [LoadNote], failure: LoadError?) {
        let bundleName = (bundle as NSString).lastPathComponent
        var current = versions.last!
        var selection: ModelVersion.Selection = versions.count == 1 ? .onlyVersion : .highestVersionNumber
        var notes: [LoadNote] = []
        let declarationPath = Self.join(bundle, ".xccurrentversion")
        // lstat, not fileExists: a link loop or a link to nothing is there, and says so when read
        // (it was once "no .xccurrentversion").
        var declarationStatus = stat()
        if lstat(declarationPath, &declarationStatus) == 0 {
            do {
                let bytes = try readFile(declarationPath)
                if let declaration = try readDeclaration(bytes, path: declarationPath) {
                    let declared = Self.versionName(fromFolderName: declaration.versionFileName)
                    if versions.contains(declared) {
                        current = declared
                        selection = .declaredCurrent
                    } else {
                        selection = .declaredCurrentMissing(
                            missingName: declaration.versionFileName,
                            declaredAt: SourceLocation(file: declarationPath, line: declaration.line,
                                                       column: declaration.column))
                        notes.append(LoadNote(path: declarationPath, message:
                            "the current version '\(declaration.versionFileName)' is not in \(bundleName); "
                                + "linting '\(current)', the highest of \(versions.count) version(s)"))
                    }
                } else {
                    notes.append(LoadNote(path: declarationPath, message:
                        "no _XCCurrentVersionName in .xccurrentversion; linting '\(current)', "
                            + "the highest of \(versions.count) version(s)"))
                }
            } catch {
                return (current, selection, notes, error)
            }
        } else if versions.count > 1 {
            notes.append(LoadNote(path: bundle, message:
                "no .xccurrentversion; linting '\(current)', the highest of \(versions.count) versions"))
        }
        return (current, selection, notes, nil)
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
    private func version(forFolder folder: String, selection: ModelVersion.Selection?) -> ModelVersion {
        let name = Self.versionName(fromFolderName: (folder as NSString).lastPathComponent)
        guard let bundle = Self.bundle(holding: folder) else { return ModelVersion(
            bundlePath: nil, name: name, bundleVersionNames: [name], selection: .standalone) }
        let versionNames = Self.versionFolderNames(in: bundle)
        if let bundleFound { bundleFound(bundle, versionNames, currentVersionName(ofBundle: bundle) ?? name) }
        return ModelVersion(bundlePath: bundle, name: name, bundleVersionNames: versionNames,
                            selection: selection ?? .namedDirectly)
    }

    // MARK: Reading files

    /// The file's bytes. Only a regular file is read: a `contents` or `.xccurrentversion`
    /// committed as a symlink to `/dev/stdin`, a FIFO or `/dev/zero` is refused at once instead
    /// of waiting or reading forever (`RegularFileReader`).
    private func readFile(_ path: String) throws(LoadError) -> [UInt8] {
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

    private func readDeclaration(_ bytes: [UInt8], path: String) throws(LoadError) -> CurrentVersionReader.Declaration? {
        try checkPrologue(bytes, path: path)
        do {
            return try CurrentVersionReader().read(
                bytes, options: XMLEventParser.Options(limits: limits))
        } catch {
            throw LoadError(xml: error, path: path)
        }
    }

    /// Rejects, with a precise reason, what libxml2 would only call "not well-formed".
    private func checkPrologue(_ bytes: [UInt8], path: String) throws(LoadError) {
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

    // MARK: Names and paths

    static let standaloneVersion = ModelVersion(bundlePath: nil, name: "", bundleVersionNames: [], selection: .standalone)

    /// Version folder names (without `.xcdatamodel`) in a bundle, lowest version first.
    static func versionFolderNames(in bundle: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: bundle)) ?? []
        return names.filter { $0.hasSuffix(".xcdatamodel") }
            .map(versionName(fromFolderName:))
            .sorted(by: versionOrder)
    }

    static func versionName(fromFolderName name: String) -> String {
        name.hasSuffix(".xcdatamodel") ? String(name.dropLast(".xcdatamodel".count)) : name
    }

    /// Orders names as a person reads version numbers: `Model 2` before `Model 10`,
    /// `Model` (no number) before `Model 2`.
    public static func versionOrder(_ lhs: String, _ rhs: String) -> Bool {
        let left = naturalChunks(lhs)
        let right = naturalChunks(rhs)
        for (a, b) in zip(left, right) where a != b {
            switch (a, b) {
            case let (.number(x), .number(y)): return x.count != y.count ? x.count < y.count : x < y
            case let (.text(x), .text(y)): return x < y
            case (.number, .text): return true
            case (.text, .number): return false
            }
        }
        return left.count != right.count ? left.count < right.count : lhs < rhs
    }

    private enum Chunk: Equatable {
        case text(String)
        /// Digits without leading zeros, compared by length then lexically: no overflow.
        case number(String)
    }

    private static func naturalChunks(_ name: String) -> [Chunk] {
        var chunks: [Chunk] = []
        var current = ""
        var inNumber = false
        func flush() {
            guard !current.isEmpty else { return }
            if inNumber {
                let trimmed = current.drop { $0 == "0" }
                chunks.append(.number(trimmed.isEmpty ? "0" : String(trimmed)))
            } else {
                chunks.append(.text(current))
            }
            current = ""
        }
        for character in name {
            let isDigit = character.isASCII && character.isNumber
            if isDigit != inNumber {
                flush()
                inNumber = isDigit
            }
            current.append(character)
        }
        flush()
        return chunks
    }

    static func join(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }

    /// The bundle a version folder is in, by its spelling: the folder's parent when that is an
    /// `.xcdatamodeld`; nil for a version folder on its own.
    static func bundle(holding versionFolder: String) -> String? {
        let bundle = parentPath(of: versionFolder)
        return bundle.hasSuffix(".xcdatamodeld") ? bundle : nil
    }

    static func parentPath(of path: String) -> String {
        ModelPaths.parent(of: path)
    }
}

/// What loading a list of paths produced, in input order.
public struct LoadResult: Sendable {
    public enum Outcome: Sendable {
        case model(Model)
        case failure(LoadError)
    }

    public var outcomes: [Outcome] = []
    public var notes: [LoadNote] = []

    public init() {}

    public var models: [Model] {
        outcomes.compactMap { if case .model(let model) = $0 { model } else { nil } }
    }

    public var failures: [LoadError] {
        outcomes.compactMap { if case .failure(let error) = $0 { error } else { nil } }
    }
}

extension LoadError {
    init(xml failure: XMLParseFailure, path: String) {
        let reason: Reason = switch failure.kind {
        case .malformed: .malformedXML(failure.message)
        case .refused: .refusedXML(failure.message)
        case .overLimit(let exceeded): .overLimit(exceeded)
        case .rejectedByReader: .notAModel(failure.message)
        }
        self.init(path: path, line: failure.line, column: failure.column, reason: reason)
    }
}

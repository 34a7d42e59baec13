import Foundation
import SafeFiles

/// Finding the models a path names, before any is read: bundles, `.xcdatamodel` folders and
/// `contents` files, the folders searched for them, a bundle's versions in version order and
/// which of them is current (`.xccurrentversion`). Loading what is found: `ModelLoader.swift`.
extension ModelLoader {
    /// Folders a recursive search never enters: build output and dependencies.
    public static let skippedFolderNames: Set<String> = [
        ".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules", ".swiftpm",
    ]

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
                    let folder = ModelPaths.parent(of: file)
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

    // MARK: Finding the models a path names

    enum Target {
        case bundle(String)
        case versionFolder(String)
        case contentsFile(String)
        /// A folder a search could not list (a path longer than PATH_MAX, no permission): said,
        /// since the models in it are not linted.
        case unlistedFolder(String, FileAccessError)
    }

    /// What a path names; a folder that is neither a bundle nor a version folder is searched
    /// for them, unless `searchingFolders` is false (then it names nothing).
    func targets(for named: String, searchingFolders: Bool = true) throws(LoadError) -> [Target] {
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
        let parent = ModelPaths.parent(of: path)
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

    // MARK: A bundle's current version

    /// The version `loadBundle` would choose: the one `.xccurrentversion` names when the bundle
    /// holds it, else the highest version number. Nil for a bundle without versions.
    public func currentVersionName(ofBundle bundle: String) -> String? {
        let versions = Self.versionFolderNames(in: bundle)
        guard !versions.isEmpty else { return nil }
        return currentVersion(ofBundle: bundle, versions: versions).name
    }

    /// Which version of a bundle is current and why, with what reading `.xccurrentversion` gave
    /// to say: notes, and the failure when it cannot be read. `versions` is not empty.
    func currentVersion(ofBundle bundle: String, versions: [String])
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

    private func readDeclaration(_ bytes: [UInt8], path: String) throws(LoadError) -> CurrentVersionReader.Declaration? {
        try checkPrologue(bytes, path: path)
        do {
            return try CurrentVersionReader().read(
                bytes, options: XMLEventParser.Options(limits: limits))
        } catch {
            throw LoadError(xml: error, path: path)
        }
    }

    // MARK: Names and paths

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
        let bundle = ModelPaths.parent(of: versionFolder)
        return bundle.hasSuffix(".xcdatamodeld") ? bundle : nil
    }
}

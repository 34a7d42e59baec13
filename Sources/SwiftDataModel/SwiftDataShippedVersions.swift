import DataModel
import Foundation
import Linting
import ModelDiff
import SourceConsistency
import VersionHashes

/// The base a SwiftData folder's versions are compared with for `shipped_version_modified`: the
/// lock file beside the folder (`DIR.momlint-lock.json`, written by `momlint versions
/// --swiftdata DIR --lock`), else the folder's Swift files as git holds them at `HEAD` or the
/// revision `--since` names, read and compiled to Core Data models as the working tree's are.
public enum SwiftDataShippedVersions {
    /// Nil when there is no base (`--since none`, outside git, no commit yet). Throws when the
    /// lock file cannot be read or the revision is not a commit.
    public static func base(of folder: String, at base: VersionBase,
                            reader: SwiftDataVersionsReader = SwiftDataVersionsReader()) throws(ShippedVersions.Failure)
        -> SwiftDataVersions.Base? {
        if base == .none { return nil }
        let lock = ShippedVersions.lockFilePath(forBundle: folder)
        if case .head = base, FileManager.default.fileExists(atPath: lock) {
            let locked = try VersionsLock.read(from: lock)
            var hashes: [String: [String: VersionHash]] = [:]
            for version in locked.versions {
                if let entityHashes = version.entityHashes { hashes[version.name] = entityHashes }
            }
            return SwiftDataVersions.Base(name: (lock as NSString).lastPathComponent, entityHashes: hashes)
        }
        guard let committed = try ShippedVersions.committedFiles(under: folder, endingWith: ".swift", at: base) else {
            return nil
        }
        let files = committed.files.map { SwiftSourceFile(path: $0.path, text: String(decoding: $0.bytes, as: UTF8.self)) }
        guard let versions = reader.read(files: files, folder: folder).versions else {
            return SwiftDataVersions.Base(name: committed.name)
        }
        var models: [String: Model] = [:]
        for version in versions.versions where models[version.name] == nil { models[version.name] = version.model }
        return SwiftDataVersions.Base(name: committed.name, models: models)
    }

    /// The lock of a folder's versions: each version's entity hashes and digest, no text (the
    /// sources are spread over many files; the hashes decide).
    public static func lock(of versions: SwiftDataVersions) -> VersionsLock {
        VersionsLock(bundle: (versions.folder as NSString).lastPathComponent, versions: versions.ordered.map {
            VersionsLock.version(named: $0.name, hashes: $0.hashes, contents: nil)
        })
    }
}

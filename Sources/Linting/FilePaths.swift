import Foundation
import SafeFiles

/// Path arithmetic shared by baselines, reporters and configuration: findings name files as
/// the user passed them, while baselines and SARIF need them relative to a fixed folder.
public enum FilePaths {
    /// `path` made absolute against `base` (the working directory by default), with `.`/`..` resolved.
    public static func absolute(_ path: String, base: String = FileManager.default.currentDirectoryPath) -> String {
        standardizedAbsolutePath(path, base: base)
    }

    /// `path` made absolute with every symbolic link in it resolved, so two spellings of one
    /// file (`Models/` and a link to it) compare equal in `excluded` and in baselines. The part
    /// of the path that does not exist is kept as written after its deepest existing folder.
    public static func resolved(_ path: String, base: String = FileManager.default.currentDirectoryPath) -> String {
        let absolutePath = absolute(path, base: base)
        if let real = canonicalPath(of: absolutePath) { return real }
        let parent = (absolutePath as NSString).deletingLastPathComponent
        guard parent != absolutePath, !parent.isEmpty else { return absolutePath }
        return (resolved(parent) as NSString).appendingPathComponent((absolutePath as NSString).lastPathComponent)
    }

    /// `path` relative to `folder`, with `..` steps when it lies outside it. Both are made
    /// absolute against the working directory first.
    public static func relative(_ path: String, to folder: String,
                                base: String = FileManager.default.currentDirectoryPath) -> String {
        let target = components(absolute(path, base: base))
        let origin = components(absolute(folder, base: base))
        var shared = 0
        while shared < min(target.count, origin.count) && target[shared] == origin[shared] { shared += 1 }
        let steps = Array(repeating: "..", count: origin.count - shared) + target[shared...]
        return steps.isEmpty ? "." : steps.joined(separator: "/")
    }

    /// True when `path` is `folder` or lies inside it (both absolute).
    public static func isInside(_ path: String, _ folder: String) -> Bool {
        let inner = components(path)
        let outer = components(folder)
        return inner.count >= outer.count && Array(inner.prefix(outer.count)) == outer
    }

    private static func components(_ absolutePath: String) -> [String] {
        absolutePath.split(separator: "/").map(String.init)
    }
}

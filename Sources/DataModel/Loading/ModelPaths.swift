import Foundation
import SafeFiles

/// The folder holding a path a user named, and the name of what a path names, safe for `.`
/// and `..`.
///
/// Why not `NSString.deletingLastPathComponent`: on Linux it traps on `"."` (swift-corelibs-
/// foundation's `_startOfLastPathComponent`), and the lexical parent of `.` or `..` says
/// nothing about the folder's name, which momlint reads (`Model.xcdatamodeld`, `Model
/// 2.xcdatamodel`). So a path is used as written while it ends in a name, keeping the
/// user's spelling in findings, and made absolute and standardized where it does not.
public enum ModelPaths {
    /// `path` as written when its last component is a name; its absolute, standardized form
    /// when it is empty or ends in `.` or `..` (run inside `Model.xcdatamodeld`, `.` is that
    /// bundle, and its name is only in the absolute path).
    public static func named(_ path: String) -> String {
        endsInAName(path) ? path : absolute(path)
    }

    /// The folder holding `path`: lexically (`Model.xcdatamodeld/Model.xcdatamodel` →
    /// `Model.xcdatamodeld`) when both ends are names, else from the absolute, standardized
    /// path (`.` → the working directory's parent, `contents` → the working directory).
    public static func parent(of path: String) -> String {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if let slash = trimmed.lastIndex(of: "/"), endsInAName(trimmed) {
            let parent = trimmed[..<slash]
            if parent.isEmpty { return "/" }
            if endsInAName(parent) { return String(parent) }
        }
        return folderPath(of: absolute(String(trimmed)))
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved.
    public static func absolute(_ path: String) -> String {
        standardizedAbsolutePath(path)
    }

    /// The last component of `path`, trailing slashes ignored: `A/B.xcdatamodel/` gives
    /// `B.xcdatamodel`, `/` gives an empty name.
    public static func lastComponent(of path: some StringProtocol) -> Substring {
        var name = Substring(path)
        while name.hasSuffix("/") { name = name.dropLast() }
        guard let slash = name.lastIndex(of: "/") else { return name }
        return name[name.index(after: slash)...]
    }

    /// The extension of the last component, without its dot (`xcdatamodeld`), or empty when it
    /// has none. A name that only starts with a dot (`.xccurrentversion`) has none.
    public static func pathExtension(of path: some StringProtocol) -> Substring {
        let name = lastComponent(of: path)
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return name[name.index(after: dot)...]
    }

    /// True when `path` is a folder that is neither a bundle nor a version folder: one the
    /// loader searches for the models below it.
    public static func isFolderToSearch(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            && !["xcdatamodeld", "xcdatamodel"].contains(pathExtension(of: path))
    }

    private static func endsInAName(_ path: some StringProtocol) -> Bool {
        let last = lastComponent(of: path)
        return !last.isEmpty && last != "." && last != ".."
    }
}

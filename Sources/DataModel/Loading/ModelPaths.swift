import Foundation

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
        let components = trimmed.split(separator: "/", omittingEmptySubsequences: false)
        if components.count >= 2, endsInAName(String(trimmed)) {
            let parent = components.dropLast().joined(separator: "/")
            if parent.isEmpty { return "/" }
            if endsInAName(parent) { return parent }
        }
        return URL(fileURLWithPath: absolute(String(trimmed))).deletingLastPathComponent().path
    }

    /// `path` made absolute against the working directory, with `.` and `..` resolved.
    public static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path.isEmpty ? "." : path).standardizedFileURL.path
    }

    private static func endsInAName(_ path: String) -> Bool {
        let last = path.split(separator: "/").last
        return last != nil && last != "." && last != ".."
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The one absolute spelling of an existing file: every symbolic link, `.` and `..` resolved by
/// the system (`realpath(3)`), so a file named twice — directly and through a link, or as
/// `A/../A/contents` — is known as one. Nil when the path does not exist or cannot be resolved.
///
/// Foundation's `standardizedFileURL.resolvingSymlinksInPath()` gives the same answer for an
/// existing file, but its first use costs a small model's lint a tenth of a millisecond in the
/// runtime's conformance lookups, which this call does not.
public func canonicalPath(of path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}

/// `path` made absolute against `base` (the working directory when nil) and standardized by its
/// spelling alone, as Foundation's `URL(fileURLWithPath:).standardizedFileURL.path` gives it:
/// empty and `.` components dropped, each `..` removing the component before it (never
/// climbing above `/`), no trailing slash. Symbolic links are left as they are.
///
/// Computed here rather than by Foundation: a `URL`'s first standardization costs a small
/// model's lint a tenth of a millisecond in the runtime's conformance lookups.
public func standardizedAbsolutePath(_ path: String, base: String? = nil) -> String {
    let joined: String
    if path.hasPrefix("/") {
        joined = path
    } else {
        let folder = base ?? currentDirectory()
        joined = path.isEmpty ? folder : folder + "/" + path
    }
    var kept: [Substring] = []
    for component in joined.split(separator: "/") {
        switch component {
        case ".": continue
        case "..": _ = kept.popLast()
        default: kept.append(component)
        }
    }
    var result = ""
    for component in kept {
        result += "/"
        result += component
    }
    return result.isEmpty ? "/" : result
}

/// The folder holding `path`, by its spelling: everything before the last `/` (`/` for a
/// top-level name, `.` for a bare name).
public func folderPath(of path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "." }
    return slash == path.startIndex ? "/" : String(path[..<slash])
}

/// The working directory, as `getcwd(3)` gives it ("/" if it cannot be read).
public func currentDirectory() -> String {
    guard let buffer = getcwd(nil, 0) else { return "/" }
    defer { free(buffer) }
    return String(cString: buffer)
}

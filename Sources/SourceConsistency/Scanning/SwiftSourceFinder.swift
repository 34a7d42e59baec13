import DataModel
import Foundation
import SafeFiles

/// Finds and reads the Swift files that `--sources` paths name: a `.swift` file, or a folder
/// searched recursively. Shared by the SwiftData reader (`--swiftdata`), which finds its
/// `@Model` classes the same way.
public struct SwiftSourceFinder: Sendable {
    /// Larger files are reported, not read: generated sources this big hold no hand-written
    /// `NSManagedObject` subclass, and the bound keeps any input cheap.
    public static let maximumFileSize = 8 * 1024 * 1024

    /// Folders never entered: build output, version control and dependencies, as for models
    /// (`.build-NAME` scratch folders included).
    static func isSkippedFolder(_ name: String) -> Bool {
        ModelLoader.skippedFolderNames.contains(name) || name.hasPrefix(".build")
    }

    /// The option the paths came from, named when a path holds no Swift source.
    public let optionName: String

    public init(optionName: String = "--sources") {
        self.optionName = optionName
    }

    /// The readable Swift files under `paths`, each once, in the order given and by name
    /// within a folder; and a problem for each path or file that could not be used.
    public func files(under paths: [String]) -> (files: [SwiftSourceFile], problems: [SourceProblem]) {
        var files: [SwiftSourceFile] = []
        var problems: [SourceProblem] = []
        var seen: Set<String> = []
        for path in paths {
            let found: [String]
            do {
                found = try swiftFilePaths(for: path)
            } catch {
                problems.append(error)
                continue
            }
            for file in found {
                let identity = canonicalPath(of: file) ?? file
                guard seen.insert(identity).inserted else { continue }
                do {
                    files.append(try read(file))
                } catch {
                    problems.append(error)
                }
            }
        }
        return (files, problems)
    }

    private func swiftFilePaths(for path: String) throws(SourceProblem) -> [String] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw SourceProblem(path: path, reason: .notFound)
        }
        guard isDirectory.boolValue else {
            guard path.hasSuffix(".swift") else {
                throw SourceProblem(path: path, reason: .noSwiftSources(
                    "not a Swift source: pass a folder of Swift sources or a .swift file to \(optionName)"))
            }
            return [path]
        }
        let found = searchFolder(path)
        guard !found.isEmpty else {
            throw SourceProblem(path: path, reason: .noSwiftSources("no .swift file in this folder or below it"))
        }
        return found
    }

    /// `.swift` files under `folder`, depth first in name order. Symbolic links to folders
    /// are not followed, so a link cycle cannot trap the search.
    private func searchFolder(_ folder: String) -> [String] {
        var found: [String] = []
        var pending = [folder]
        while let current = pending.popLast() {
            guard let entries = FolderListing.entries(of: current) else { continue }
            var subfolders: [String] = []
            for entry in entries.sorted(by: { $0.name < $1.name }) {
                let child = current.hasSuffix("/") ? current + entry.name : current + "/" + entry.name
                switch entry.kind {
                case .folder:
                    if !Self.isSkippedFolder(entry.name) { subfolders.append(child) }
                case .regularFile, .symbolicLink:
                    if entry.name.hasSuffix(".swift") { found.append(child) }
                case .other:
                    continue
                }
            }
            // Push in reverse so the first name is searched first.
            pending.append(contentsOf: subfolders.reversed())
        }
        return found
    }

    private func read(_ path: String) throws(SourceProblem) -> SwiftSourceFile {
        let bytes: [UInt8]
        do {
            // Regular files only: a `.swift` committed as a symlink to a FIFO or a terminal must not hang the scan.
            bytes = try RegularFileReader.bytes(atPath: path, limit: Self.maximumFileSize)
        } catch {
            if case .tooLarge(let size, let limit) = error.problem {
                throw SourceProblem(path: path, reason: .tooLarge(bytes: size, limit: limit))
            }
            throw SourceProblem(path: path, reason: .unreadable(error.reason))  // already a clause: "it is not a regular file (a FIFO)"
        }
        guard let text = String(bytes: bytes, encoding: .utf8) else {
            throw SourceProblem(path: path, reason: .notUTF8)
        }
        return SwiftSourceFile(path: path, text: text)
    }
}

extension SourceProblem: Error {}

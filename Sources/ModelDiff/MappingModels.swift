import Foundation
import SafeFiles

/// The `.xcmappingmodel` folders found beside bundles or under the linted paths, and which pair
/// of versions each maps.
///
/// Xcode stores a mapping model as `<Name>.xcmappingmodel/xcmapping.xml`, which records the
/// source and destination models by path (e.g. `Model.xcdatamodeld/Model 2.xcdatamodel`).
/// The format is undocumented (inferred from files Xcode writes), so a mapping model is taken
/// to cover a pair when its XML names both versions' folders, in either order of appearance.
public struct MappingModels: Sendable {
    /// The text of each mapping model's XML, by its folder path.
    public private(set) var documents: [String: String] = [:]

    public init(documents: [String: String] = [:]) {
        self.documents = documents
    }

    /// Folders a search never enters: build output and dependencies.
    static let skippedFolderNames: Set<String> = [".build", ".git", "DerivedData", "Pods", "Carthage", "node_modules"]

    /// Looks for mapping models under each folder (not descending into build output, nor
    /// following links to folders). A folder inside another one searched is not walked again.
    public init(searching folders: [String]) {
        var seen = Set<String>()
        for folder in Self.outermost(folders) {
            var pending = [folder]
            while let current = pending.popLast() {
                guard let entries = FolderListing.entries(of: current) else { continue }
                for entry in entries where !Self.skippedFolderNames.contains(entry.name) {
                    let path = current.hasSuffix("/") ? current + entry.name : current + "/" + entry.name
                    if entry.name.hasSuffix(".xcmappingmodel") {
                        guard seen.insert(path).inserted else { continue }
                        documents[path] = Self.mappingXML(in: path)
                    } else if entry.kind == .folder {
                        pending.append(path)
                    }
                }
            }
        }
    }

    /// The text of a mapping model's `xcmapping.xml`; empty when it cannot be read (missing,
    /// not a regular file — a FIFO must not block the lint — or larger than any real one).
    private static func mappingXML(in mappingModel: String) -> String {
        let bytes = try? RegularFileReader.bytes(atPath: mappingModel + "/xcmapping.xml", limit: 8 << 20)
        return String(decoding: bytes ?? [], as: UTF8.self)
    }

    /// `folders` less each one a walk of another would visit: the same folder spelled again, or
    /// one inside another below no skipped folder. In the order given.
    static func outermost(_ folders: [String]) -> [String] {
        let absolute = folders.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        return folders.indices.compactMap { index in
            let path = absolute[index]
            let visitedElsewhere = absolute.indices.contains { other in
                guard other != index else { return false }
                if absolute[other] == path { return other < index }
                let prefix = absolute[other].hasSuffix("/") ? absolute[other] : absolute[other] + "/"
                guard path.hasPrefix(prefix) else { return false }
                return !path.dropFirst(prefix.count).split(separator: "/").contains { skippedFolderNames.contains(String($0)) }
            }
            return visitedElsewhere ? nil : folders[index]
        }
    }

    /// True when a mapping model names both versions' folders and, when it names `.xcdatamodeld`
    /// bundles at all, the bundle `bundleName` (e.g. `Model.xcdatamodeld`; nil: any bundle).
    public func covers(from older: String, to newer: String, inBundle bundleName: String? = nil) -> Bool {
        mappingModel(from: older, to: newer, inBundle: bundleName) != nil
    }

    /// The folder of the first mapping model (in path order) that covers the pair, as `covers` decides.
    public func mappingModel(from older: String, to newer: String, inBundle bundleName: String? = nil) -> String? {
        documents.keys.sorted().first { path in
            let text = documents[path]!
            guard Self.names(text, folder: older), Self.names(text, folder: newer) else { return false }
            guard let bundleName, text.contains(".xcdatamodeld") else { return true }
            return text.contains(bundleName)
        }
    }

    /// True when `text` holds `<version>.xcdatamodel` as a whole path component: `Model` must not
    /// match inside `Model.xcdatamodeld` or `OldModel.xcdatamodel`.
    static func names(_ text: String, folder version: String) -> Bool {
        let needle = version + ".xcdatamodel"
        var searchStart = text.startIndex
        while let range = text.range(of: needle, range: searchStart..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            let startsComponent = before.map { "/>\"' \n\t".contains($0) } ?? true
            let endsComponent = after.map { !$0.isLetter && !$0.isNumber } ?? true
            if startsComponent && endsComponent { return true }
            searchStart = range.upperBound
        }
        return false
    }
}

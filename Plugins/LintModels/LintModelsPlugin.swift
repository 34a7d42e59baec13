import Foundation
import PackagePlugin

/// `swift package lint-models [--target NAME]... [momlint lint options]`: lints the Core Data
/// models inside the package's targets with momlint, from the package's root so its
/// `.momlint.yml` applies. Options it does not know (`--reporter`, `--strict`, ...) go to
/// `momlint lint` unchanged.
@main
struct LintModelsPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        let targets = targetNames.isEmpty ? context.package.targets : try context.package.targets(named: targetNames)
        let folders = Set(targets.map(\.directoryURL.standardizedFileURL))
        let models = folders.sorted { $0.path < $1.path }.flatMap(Self.models(under:))
        guard !models.isEmpty else {
            Diagnostics.remark("lint-models: no .xcdatamodeld or .xcdatamodel in the package's targets; nothing to lint")
            return
        }

        let process = Process()
        process.executableURL = try context.tool(named: "momlint").url
        process.arguments = ["lint"] + extractor.remainingArguments + models.map(\.path)
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // momlint has printed the findings; fail the command with its documented exit status.
        guard process.terminationReason == .exit, process.terminationStatus == 0 else {
            throw LintModelsFailure(status: process.terminationStatus)
        }
    }

    /// Model bundles, and version folders outside any bundle, under `folder`.
    static func models(under folder: URL) -> [URL] {
        guard let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isDirectoryKey]) else {
            return []
        }
        var found: [URL] = []
        for case let url as URL in walker {
            switch url.pathExtension {
            case "xcdatamodeld", "xcdatamodel":
                found.append(url)
                walker.skipDescendants()  // a bundle's versions are linted through the bundle
            default:
                if url.lastPathComponent == ".build" { walker.skipDescendants() }
            }
        }
        return found.sorted { $0.path < $1.path }
    }
}

struct LintModelsFailure: Error, CustomStringConvertible {
    var status: Int32
    var description: String {
        status == 1 ? "momlint found error-severity findings (exit 1)"
                    : "momlint could not lint every model (exit \(status)); see the messages above"
    }
}

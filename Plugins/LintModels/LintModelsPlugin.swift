import Foundation
import PackagePlugin

/// `swift package lint-models [--target NAME]... [momlint lint options]`: lints the Core Data
/// models inside the package's targets (all but test targets, unless named) with momlint, from
/// the package's root so its `.momlint.yml` applies. Options it does not know (`--reporter`, `--strict`, ...) go to
/// `momlint lint` unchanged.
@main
struct LintModelsPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        var extractor = ArgumentExtractor(arguments)
        let targetNames = extractor.extractOption(named: "target")
        // Test targets hold fixtures, some broken on purpose: lint them only when named.
        let targets = targetNames.isEmpty
            ? context.package.targets.filter { ($0 as? SourceModuleTarget)?.kind != .test }
            : try context.package.targets(named: targetNames)
        let folders = Set(targets.map(\.directoryURL.standardizedFileURL))
        let models = folders.sorted { $0.path < $1.path }.flatMap(Self.models(under:))
        guard !models.isEmpty else {
            print("lint-models: no .xcdatamodeld or .xcdatamodel in the package's non-test targets; "
                  + "nothing to lint (name a target with --target NAME)")
            return
        }

        // Built on demand through the package manager rather than declared as the plugin's
        // dependency: a declared tool is built a second time, for the host, by every
        // `swift build` of the package, swift-syntax included.
        // The first build compiles momlint and its dependencies and takes minutes; say so
        // rather than sit silent (later runs reuse it and take a second).
        Self.say("lint-models: building momlint (debug; the first build takes a few minutes, later runs reuse it)...")
        let build = try packageManager.build(.product("momlint"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded,
              let momlint = build.builtArtifacts.first(where: { $0.kind == .executable && $0.url.lastPathComponent == "momlint" })
        else {
            print(build.logText)
            throw LintModelsFailure.buildFailed
        }
        let process = Process()
        process.executableURL = momlint.url
        let root = context.package.directoryURL.standardizedFileURL.path + "/"
        // Relative to the package, as a user would type them, so reports read the same as from the terminal.
        let paths = models.map { $0.path.hasPrefix(root) ? String($0.path.dropFirst(root.count)) : $0.path }
        process.arguments = ["lint"] + extractor.remainingArguments + paths
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        // momlint has printed the findings; end with its documented exit status (0, 1 or 2)
        // rather than a thrown error, which SwiftPM always turns into 1. SwiftPM versions that
        // still collapse a plugin's status to 0/1 (swift-package-manager#7380) lose the 2, so
        // the line below names it.
        guard process.terminationReason == .exit else {
            throw LintModelsFailure.momlintCrashed(process.terminationStatus)
        }
        if process.terminationStatus != 0 {
            Self.say("lint-models: \(LintModelsFailure.momlintExited(process.terminationStatus))", toStandardError: true)
            exit(process.terminationStatus)
        }
    }

    /// Prints at once: SwiftPM shows the plugin's output as it comes, and a buffered line
    /// would appear only after the build it announces.
    static func say(_ line: String, toStandardError: Bool = false) {
        let handle = toStandardError ? FileHandle.standardError : FileHandle.standardOutput
        try? handle.write(contentsOf: Data((line + "\n").utf8))
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

enum LintModelsFailure: Error, CustomStringConvertible {
    case buildFailed
    case momlintExited(Int32)
    case momlintCrashed(Int32)

    var description: String {
        switch self {
        case .buildFailed: "could not build momlint; see the build log above"
        case .momlintExited(1): "momlint found error-severity findings (exit 1)"
        case .momlintExited(let status): "momlint could not lint every model (exit \(status)); see the messages above"
        case .momlintCrashed(let signal): "momlint was stopped by signal \(signal)"
        }
    }
}

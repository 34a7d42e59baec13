import Foundation

/// The built `momlint` executable, and a scratch workspace to run it in.
enum MomlintBinary {
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// `swift test` builds `momlint` into the products folder that holds the test bundle, wherever
    /// `--scratch-path` put it; look there first, then in the default `.build` folders.
    static let path: String? = {
        var folders: [URL] = []
        if let bundle = Bundle.main.executableURL { folders.append(bundle.deletingLastPathComponent()) }
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).standardizedFileURL
        folders.append(runner.deletingLastPathComponent())
        // On macOS the runner sits inside `momlintPackageTests.xctest/Contents/MacOS`.
        folders += Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        folders.append(URL(fileURLWithPath: packageRoot + "/.build/debug"))
        return folders.map { $0.appendingPathComponent("momlint").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    struct Result {
        var output: String
        var error: String
        var status: Int32
    }

    /// Runs `momlint arguments` in `directory` and waits for it.
    static func run(_ arguments: [String], in directory: String) throws -> Result {
        guard let path else { throw MissingBinary() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Drain standard error on another thread, so neither pipe can fill and block momlint.
        nonisolated(unsafe) var errorData = Data()
        let drained = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            errorData = error.fileHandleForReading.readDataToEndOfFile()
            drained.signal()
        }
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        drained.wait()
        process.waitUntilExit()
        return Result(output: String(decoding: outputData, as: UTF8.self),
                      error: String(decoding: errorData, as: UTF8.self), status: process.terminationStatus)
    }

    struct MissingBinary: Error, CustomStringConvertible {
        var description: String { "momlint is not built next to the tests; run 'swift build' first" }
    }
}

/// A temporary folder holding a copy of the Library fixture and a `.momlint.yml` that pins
/// the rules to `missing_inverse`, so these tests do not change as the catalogue grows.
final class Workspace {
    let path: String
    static let fixtures = MomlintBinary.packageRoot + "/Tests/ReportingTests/Fixtures"
    static let pinnedConfiguration = "only_rules: [missing_inverse]\n"

    init(configuration: String? = Workspace.pinnedConfiguration) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/Library.xcdatamodeld", toPath: path + "/Library.xcdatamodeld")
        if let configuration { try write(".momlint.yml", configuration) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    static let contents = "Library.xcdatamodeld/Library.xcdatamodel/contents"

    func write(_ relativePath: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path + "/" + relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: path + "/" + relativePath, encoding: .utf8)
    }

    func run(_ arguments: String...) throws -> MomlintBinary.Result {
        try MomlintBinary.run(arguments, in: path)
    }
}

import Foundation

/// Runs the built `momlint` binary, as a user would, and captures what it prints.
struct MomlintProcess {
    struct Output {
        var status: Int32
        var standardOutput: String
        var standardError: String
    }

    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `momlint` executable SwiftPM built beside this test bundle.
    static var executable: URL {
        get throws {
            var candidates: [URL] = []
            if let path = Bundle.main.executablePath {
                candidates.append(URL(fileURLWithPath: path).deletingLastPathComponent())
            }
            for bundle in Bundle.allBundles {
                candidates.append(bundle.bundleURL.deletingLastPathComponent())
            }
            candidates.append(packageRoot.appendingPathComponent(".build/debug"))
            for folder in candidates {
                let binary = folder.appendingPathComponent("momlint")
                if FileManager.default.isExecutableFile(atPath: binary.path) { return binary }
            }
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "momlint beside \(candidates)"])
        }
    }

    /// Runs `momlint arguments…` in `directory` (the package root by default).
    /// `environment`: the child's whole environment; nil inherits this process's.
    static func run(_ arguments: [String], in directory: URL = packageRoot,
                    environment: [String: String]? = nil) throws -> Output {
        let process = Process()
        process.executableURL = try executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        if let environment { process.environment = environment }
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Read both pipes before waiting, so a large output cannot fill a pipe and stall.
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        let errData = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Output(status: process.terminationStatus,
                      standardOutput: String(decoding: outData, as: UTF8.self),
                      standardError: String(decoding: errData, as: UTF8.self))
    }

    /// Runs `momlint arguments…` with standard output and standard error on ONE pipe, as
    /// pre-commit, CI logs and Xcode build phases see them, and returns what arrived in order.
    static func runMerged(_ arguments: [String], in directory: URL = packageRoot) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = try executable
        process.arguments = arguments
        process.currentDirectoryURL = directory
        let merged = Pipe()
        process.standardOutput = merged
        process.standardError = merged
        try process.run()
        let data = merged.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

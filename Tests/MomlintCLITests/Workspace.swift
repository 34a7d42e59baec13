import Foundation

/// A temporary folder holding a copy of the reporters' Library fixture and a `.momlint.yml`
/// that pins the rules to `missing_inverse`, so these tests do not change as the catalogue
/// grows. `momlint` runs inside it, so configuration discovery and relative paths are tested
/// as a user meets them.
final class Workspace {
    let path: String
    static let fixtures = MomlintProcess.packageRoot.path + "/Tests/ReportingTests/Fixtures"
    static let pinnedConfiguration = "only_rules: [missing_inverse]\n"
    static let contents = "Library.xcdatamodeld/Library.xcdatamodel/contents"
    static let momlintIsBuilt = (try? MomlintProcess.executable) != nil

    init(configuration: String? = Workspace.pinnedConfiguration) throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.fixtures + "/Library.xcdatamodeld", toPath: path + "/Library.xcdatamodeld")
        if let configuration { try write(".momlint.yml", configuration) }
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ relativePath: String, _ text: String) throws {
        let url = URL(fileURLWithPath: path + "/" + relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try text.write(to: url, atomically: true, encoding: .utf8)
    }

    func read(_ relativePath: String) throws -> String {
        try String(contentsOfFile: path + "/" + relativePath, encoding: .utf8)
    }

    func run(_ arguments: String...) throws -> MomlintProcess.Output {
        try MomlintProcess.run(arguments, in: URL(fileURLWithPath: path))
    }
}

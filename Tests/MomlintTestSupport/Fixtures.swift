import DataModel
import Foundation

/// Paths into the repository, computed from this file so tests run from any directory, and
/// small models written or read inline; shared by the DataModel and ModelDiff tests.
public enum Fixtures {
    public static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    public static func path(_ relative: String) -> String {
        packageRoot.appendingPathComponent(relative).path
    }

    public static let models = path("Fixtures/Models")

    /// The shared real-world corpus beside the repository, when this machine has it.
    public static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent("shared/corpus/models").path

    public static var hasCorpus: Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: corpus, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// A fresh temporary folder, removed by the caller's `defer`.
    public static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    public static func write(_ text: String, to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    /// A minimal `contents` document around `body` (entities and other model children).
    /// A model read from `contents(body)`, as the loader reads a file named `inline`.
    public static func model(_ body: String) throws -> Model {
        try ModelLoader().model(fromContents: Array(contents(body).utf8), file: "inline")
    }

    public static func contents(_ body: String, modelAttributes: String = "") -> String {
        """
        <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
        <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0"\(modelAttributes)>
        \(body)
        </model>
        """
    }
}

import DataModel
import Foundation
import Linting

extension LintRun {
    /// Reads the SwiftData `@Model` classes under each of `paths` and lints each schema with
    /// `engine`, as a model read from a `contents` file is linted. A folder that also holds
    /// `.xcdatamodeld` bundles is linted as both: its Core Data models are loaded with `loader`
    /// (each once, even when the run already holds it). Sources that cannot be used go to
    /// `loadFailures` (so `momlint lint` exits 2). Does nothing when no path is given.
    public mutating func lintSwiftData(in paths: [String], engine: LintEngine, loader: ModelLoader = ModelLoader(),
                                       usesCloudKit: Bool = false) {
        guard !paths.isEmpty else { return }
        let read = SwiftDataReader(usesCloudKit: usesCloudKit).read(paths: paths)
        var linted = Set(reports.map { FilePaths.absolute($0.model.file) })
        for folder in paths where Self.isPlainFolder(folder) {
            let loaded = loader.load(paths: [folder])
            for model in loaded.models where linted.insert(FilePaths.absolute(model.file)).inserted {
                reports.append(ModelReport(model: model, findings: engine.lint(model)))
            }
            // A SwiftData folder need not hold a Core Data model too.
            loadFailures += loaded.failures.filter { failure in
                if failure.path == folder, case .notAModel = failure.reason { return false }
                return true
            }
            notes += loaded.notes
        }
        reports += read.models.map { ModelReport(model: $0, findings: engine.lint($0)) }
        loadFailures += read.problems.map(\.loadError)
        notes += read.notes
    }

    private static func isPlainFolder(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            && !["xcdatamodeld", "xcdatamodel"].contains(URL(fileURLWithPath: path).pathExtension)
    }
}

import DataModel
import Foundation
import Linting
import ModelDiff
import SourceConsistency

extension LintRun {
    /// Reads the SwiftData `@Model` classes under each of `paths` and lints each schema with
    /// `engine`, as a model read from a `contents` file is linted. A folder that also holds
    /// `.xcdatamodeld` bundles is linted as both: its Core Data models are loaded with `loader`
    /// (each once, even when the run already holds it). Sources that cannot be used go to
    /// `loadFailures` (so `momlint lint` exits 2). Does nothing when no path is given.
    ///
    /// A folder whose sources declare `VersionedSchema`s is also checked version against version
    /// by the engine's `SchemaVersionsRule`s (`SwiftDataVersionsReader`), from the same parsed
    /// files; `shipped_version_modified` compares the versions with `versionBase` (git `HEAD`, a
    /// revision, or the lock file beside the folder), and `.none` compares nothing.
    public mutating func lintSwiftData(in paths: [String], engine: LintEngine, loader: ModelLoader = ModelLoader(),
                                       usesCloudKit: Bool = false, versionBase: VersionBase = .none) {
        guard !paths.isEmpty else { return }
        let reader = SwiftDataReader(usesCloudKit: usesCloudKit)
        let checksVersions = engine.rules.contains { $0.init().asSchemaVersionsRule != nil }
        let readsBase = Self.readsShippedVersions(from: versionBase, engine: engine)
        var read = SwiftDataReader.Result(models: [], problems: [], notes: [])
        var versionFindings: [String: [Finding]] = [:]
        for path in paths {
            guard let sources = reader.read(path: path, into: &read), checksVersions else { continue }
            let versionsReader = SwiftDataVersionsReader(usesCloudKit: usesCloudKit)
            let (found, versionNotes) = versionsReader.versions(of: sources, folder: path)
            read.notes += versionNotes
            guard var versions = found else { continue }
            if readsBase, versions.versions.count >= 2 {
                do {
                    versions.base = try SwiftDataShippedVersions.base(of: path, at: versionBase, reader: versionsReader)
                } catch {
                    read.problems.append(SourceProblem(path: path, reason: .unreadable(error.description)))
                }
            }
            versionFindings[path, default: []] += engine.lintSchemaVersions(versions)
        }
        var linted = Set(reports.map { FilePaths.absolute($0.model.file) })
        for folder in paths where ModelPaths.isFolderToSearch(folder) {
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
        reports += read.models.map { model in
            ModelReport(model: model, findings: (engine.lint(model) + (versionFindings[model.file] ?? [])).sorted(by: Finding.reportOrder))
        }
        loadFailures += read.problems.map(\.loadError)
        notes += read.notes
    }
}

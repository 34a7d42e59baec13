import DataModel
import Foundation
import SafeYAML
import Yams

/// Reads scenario files (YAML, one scenario each) into `Scenario` values, checking them against
/// their model as it goes: every error names the file and, where it can, the line and column.
///
/// The format is `Fixtures/Scenarios/schema.json`; beyond the schema, the loader checks what only
/// the model can tell: entities, attributes and relationships exist, values fit their types,
/// objects are inserted before they are used, and the `features` list names what the steps use.
public struct ScenarioLoader {
    /// The scenarios found, in id order, and the files that could not be loaded.
    public struct LoadedSuite: Sendable {
        public var scenarios: [Scenario]
        public var errors: [ScenarioLoadError]
    }

    /// Folders (besides the scenario folder's own tree) a scenario's `model:` may point into.
    public var allowedModelRoots: [String]

    /// `allowedModelRoots`: folders, besides the scenario folder's tree and the shipped models
    /// (`ConformanceSuite.shippedModelDirectory`), that a scenario's `model:` may point into
    /// (`--allow-models-under`).
    public init(allowedModelRoots: [String] = []) {
        self.allowedModelRoots = allowedModelRoots
    }

    /// Every `*.yaml` / `*.yml` file under `directory`, recursively. A file that fails to load is
    /// reported and the others are still loaded; two files with the same id are an error.
    public func loadSuite(in directory: String) -> LoadedSuite {
        var suite = LoadedSuite(scenarios: [], errors: [])
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else {
            suite.errors.append(ScenarioLoadError(file: directory, message: "no such scenario directory"))
            return suite
        }
        let cache = ModelCache(allowedRoots: [directory] + allowedModelRoots + [ConformanceSuite.shippedModelDirectory])
        var fileByID: [String: String] = [:]
        for file in Self.scenarioFiles(in: directory) {
            do {
                let scenario = try load(file: file, cache: cache)
                if let first = fileByID[scenario.id] {
                    suite.errors.append(ScenarioLoadError(file: file, message:
                        "scenario id '\(scenario.id)' is already used by \(first); ids must be unique"))
                    continue
                }
                fileByID[scenario.id] = file
                suite.scenarios.append(scenario)
            } catch {
                suite.errors.append(error)
            }
        }
        suite.scenarios.sort { $0.id < $1.id }
        return suite
    }

    /// Loads one scenario file.
    public func load(file: String) throws(ScenarioLoadError) -> Scenario {
        try load(file: file, cache: ModelCache(allowedRoots: [Self.folder(of: file)] + allowedModelRoots
                                                 + [ConformanceSuite.shippedModelDirectory]))
    }

    /// Parses scenario text; `file` names it in errors and anchors the relative model path.
    public func parse(yaml: String, file: String) throws(ScenarioLoadError) -> Scenario {
        try parse(yaml: yaml, file: file, cache: ModelCache(allowedRoots: [Self.folder(of: file)] + allowedModelRoots
                                                              + [ConformanceSuite.shippedModelDirectory]))
    }

    private static func folder(of file: String) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().path
    }

    private func load(file: String, cache: ModelCache) throws(ScenarioLoadError) -> Scenario {
        let text: String
        do {
            // Bounded: a scenario folder from another project cannot make the loader read a huge file.
            text = try SafeYAML.readText(atPath: file)
        } catch {
            throw ScenarioLoadError(file: file, message: error.kind == .unreadable
                ? "cannot read: \(error.message)" : "refused: \(error.message)")
        }
        return try parse(yaml: text, file: file, cache: cache)
    }

    private func parse(yaml: String, file: String, cache: ModelCache) throws(ScenarioLoadError) -> Scenario {
        let root: Node?
        do {
            root = try SafeYAML.compose(yaml: yaml)
        } catch let refusal as YAMLRefusal {
            throw ScenarioLoadError(file: file, line: refusal.line, column: refusal.column,
                                    message: "refused: \(refusal.message)")
        } catch let error as YamlError {
            throw Self.loadError(from: error, file: file)
        } catch {
            throw ScenarioLoadError(file: file, message: "invalid YAML: \(error)")
        }
        guard let root else { throw ScenarioLoadError(file: file, message: "the file is empty; a scenario is a mapping") }
        var parser = ScenarioParser(file: file, cache: cache)
        return try parser.scenario(from: YAMLNode(node: root, file: file))
    }

    /// Yams's error with its mark, as one line.
    private static func loadError(from error: YamlError, file: String) -> ScenarioLoadError {
        switch error {
        case .scanner(let context, let problem, let mark, _), .parser(let context, let problem, let mark, _),
             .composer(let context, let problem, let mark, _):
            let prefix = context.map { "\($0.text) " } ?? ""
            return ScenarioLoadError(file: file, line: mark.line, column: mark.column,
                                     message: "invalid YAML: \(prefix)\(problem)")
        default:
            let firstLine = String(describing: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            return ScenarioLoadError(file: file, message: "invalid YAML: \(firstLine)")
        }
    }

    static func scenarioFiles(in directory: String) -> [String] {
        guard let enumerator = FileManager.default.enumerator(atPath: directory) else { return [] }
        var files: [String] = []
        while let relative = enumerator.nextObject() as? String {
            if relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                files.append((directory as NSString).appendingPathComponent(relative))
            }
        }
        return files.sorted()
    }
}

/// Models loaded so far, by absolute path: scenarios share a handful of models.
///
/// Scenario folders are untrusted (they may come from another project), so a scenario's `model:`
/// must name a model — an `.xcdatamodeld` bundle, an `.xcdatamodel` folder or a `contents` file,
/// never a folder to search (`model: /` once scanned the whole disk) — inside one of
/// `allowedRoots`, after every symlink is resolved.
final class ModelCache {
    private var models: [String: Result<Model, LoadError>] = [:]
    /// Folders a model may be in, symlinks resolved.
    let allowedRoots: [String]

    init(allowedRoots: [String]) {
        self.allowedRoots = allowedRoots.map(Self.resolved)
    }

    /// Why the model at `path` may not be loaded, in words; nil when it may.
    func refusal(of path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") || name == "contents" else {
            return "'model' must name an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file, not '\(path)'; "
                + "a scenario never searches a folder for models"
        }
        let real = Self.resolved(path)
        guard allowedRoots.contains(where: { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }) else {
            return "the model '\(path)' is outside the scenario folder; a scenario's model must be inside it "
                + "(or under a folder given with --allow-models-under)"
        }
        return nil
    }

    /// `path` absolute, with `.`, `..` and every symlink resolved (as far as it exists).
    static func resolved(_ path: String) -> String {
        let standardized = URL(fileURLWithPath: path).standardizedFileURL.path
        guard let real = realpath(standardized, nil) else { return standardized }
        defer { free(real) }
        return String(cString: real)
    }

    func model(at path: String) -> Result<Model, LoadError> {
        if let known = models[path] { return known }
        let result = ModelLoader().load(paths: [path])
        let outcome: Result<Model, LoadError>
        if let failure = result.failures.first {
            outcome = .failure(failure)
        } else if let model = result.models.first {
            outcome = .success(model)
        } else {
            outcome = .failure(LoadError(path: path, reason: .notAModel("no model found")))
        }
        models[path] = outcome
        return outcome
    }
}

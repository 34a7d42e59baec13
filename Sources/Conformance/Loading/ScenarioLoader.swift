import DataModel
import Foundation
import SafeFiles
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
            let (loaded, errors) = loadReportingAll(file: file, cache: cache)
            suite.errors += errors
            guard let scenario = loaded else { continue }
            if let first = fileByID[scenario.id] {
                suite.errors.append(ScenarioLoadError(file: file, line: scenario.idLine, column: 1, message:
                    "scenario id '\(scenario.id)' is already used by \(first); ids must be unique"))
                continue
            }
            fileByID[scenario.id] = file
            suite.scenarios.append(scenario)
        }
        suite.scenarios.sort { $0.id < $1.id }
        return suite
    }

    /// Loads one scenario file; throws its first problem.
    public func load(file: String) throws(ScenarioLoadError) -> Scenario {
        let (scenario, errors) = loadReportingAll(file: file, cache: cache(forFile: file))
        guard let scenario else { throw errors[0] }
        return scenario
    }

    /// Parses scenario text; `file` names it in errors and anchors the relative model path.
    /// Throws the first problem.
    public func parse(yaml: String, file: String) throws(ScenarioLoadError) -> Scenario {
        let (scenario, errors) = parseReportingAll(yaml: yaml, file: file, cache: cache(forFile: file))
        guard let scenario else { throw errors[0] }
        return scenario
    }

    /// The models a scenario file may name: its own folder's tree, the allowed roots, and the
    /// suite's shipped models.
    private func cache(forFile file: String) -> ModelCache {
        ModelCache(allowedRoots: [Self.folder(of: file)] + allowedModelRoots + [ConformanceSuite.shippedModelDirectory])
    }

    private static func folder(of file: String) -> String {
        URL(fileURLWithPath: file).deletingLastPathComponent().path
    }

    /// Every problem of one scenario text, in file order; the scenario when there is none.
    public func problems(inYAML yaml: String, file: String) -> [ScenarioLoadError] {
        parseReportingAll(yaml: yaml, file: file, cache: cache(forFile: file)).1
    }

    /// The scenario, or every problem the file has (at least one).
    private func loadReportingAll(file: String, cache: ModelCache) -> (Scenario?, [ScenarioLoadError]) {
        let text: String
        do {
            // Bounded: a scenario folder from another project cannot make the loader read a huge file.
            text = try SafeYAML.readText(atPath: file)
        } catch {
            return (nil, [ScenarioLoadError(file: file, message: error.kind == .unreadable
                ? "cannot read: \(error.message)" : "refused: \(error.message)")])
        }
        return parseReportingAll(yaml: text, file: file, cache: cache)
    }

    private func parseReportingAll(yaml: String, file: String, cache: ModelCache) -> (Scenario?, [ScenarioLoadError]) {
        do {
            let root = try composed(yaml: yaml, file: file)
            var parser = ScenarioParser(file: file, cache: cache)
            let scenario = parser.scenario(from: YAMLNode(node: root, file: file))
            let errors = parser.errors.sorted { ($0.line ?? 0, $0.column ?? 0) < ($1.line ?? 0, $1.column ?? 0) }
            guard let scenario, errors.isEmpty else {
                return (nil, errors.isEmpty ? [ScenarioLoadError(file: file, message: "not a scenario")] : errors)
            }
            return (scenario, [])
        } catch {
            return (nil, [error])
        }
    }

    /// The YAML's root node, within SafeYAML's limits.
    private func composed(yaml: String, file: String) throws(ScenarioLoadError) -> Node {
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
        return root
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
        let relativePaths = FileManager.default.enumerator(atPath: directory)?.compactMap { $0 as? String } ?? []
        return relativePaths.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
            .map { (directory as NSString).appendingPathComponent($0) }.sorted()
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
    ///
    /// Every file and folder the load reads is checked, each with its symlinks resolved, not only
    /// `path`: a `contents` inside the scenario folder that links to `/etc/passwd`, or a version
    /// folder that links to a model elsewhere, was once read.
    func refusal(of path: String) -> String? {
        let name = (path as NSString).lastPathComponent
        guard name.hasSuffix(".xcdatamodeld") || name.hasSuffix(".xcdatamodel") || name == "contents" else {
            return "'model' must name an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file, not '\(path)'; "
                + "a scenario never searches a folder for models"
        }
        guard isAllowed(path) else {
            return "the model '\(path)' is outside the scenario folder; a scenario's model must be inside it "
                + "(or under a folder given with --allow-models-under)"
        }
        for inner in Self.pathsReadInside(model: path) where !isAllowed(inner) {
            let relative = String(inner.dropFirst(path.count).drop { $0 == "/" })
            return "'\(relative)' in the model '\(path)' leads outside the scenario folder; every file a scenario's "
                + "model reads must be inside it (or under a folder given with --allow-models-under)"
        }
        return nil
    }

    private func isAllowed(_ path: String) -> Bool {
        let real = Self.resolved(path)
        return allowedRoots.contains { real == $0 || real.hasPrefix($0.hasSuffix("/") ? $0 : $0 + "/") }
    }

    /// What `ModelLoader` reads or enters below `model`, as it names them: for a bundle, its
    /// `.xccurrentversion` and every version folder with its `contents` (a reopen may name any
    /// version); for a version folder, its `contents`. Paths that do not exist are listed too
    /// (they resolve to themselves, inside), so a dangling link is left to the loader to report.
    static func pathsReadInside(model: String) -> [String] {
        func join(_ folder: String, _ name: String) -> String { (folder as NSString).appendingPathComponent(name) }
        switch (model as NSString).pathExtension {
        case "xcdatamodeld":
            let versions = ((try? FileManager.default.contentsOfDirectory(atPath: model)) ?? [])
                .filter { $0.hasSuffix(".xcdatamodel") }.sorted()
            return [join(model, ".xccurrentversion")]
                + versions.flatMap { [join(model, $0), join(join(model, $0), "contents")] }
        case "xcdatamodel":
            return [join(model, "contents")]
        default:
            return []
        }
    }

    /// `path` absolute, with `.`, `..` and every symlink resolved (as far as it exists).
    static func resolved(_ path: String) -> String {
        let standardized = standardizedAbsolutePath(path)
        return canonicalPath(of: standardized) ?? standardized
    }

    func model(at path: String) -> Result<Model, LoadError> {
        if let known = models[path] { return known }
        let result = ModelLoader().load(paths: [path])
        let outcome: Result<Model, LoadError> = if let failure = result.failures.first {
            .failure(failure)
        } else if let model = result.models.first {
            .success(model)
        } else {
            .failure(LoadError(path: path, reason: .notAModel("no model found")))
        }
        models[path] = outcome
        return outcome
    }
}

import Foundation
import Linting
import SafeFiles
import SafeYAML
import Yams

/// Finding and reading `.momlint.yml`.
public enum ConfigurationFile {
    public static let defaultName = ".momlint.yml"

    /// A configuration and the warnings reading it produced.
    public struct Loaded: Sendable {
        public var configuration: LintConfiguration
        public var warnings: [ConfigurationDiagnostic]
    }

    /// The nearest `.momlint.yml` in `directory` or any folder above it, as SwiftLint finds
    /// its configuration; nil when there is none up to the root.
    public static func discover(from directory: String = FileManager.default.currentDirectoryPath) -> String? {
        var folder = FilePaths.absolute(directory)
        while true {
            let candidate = folder == "/" ? "/" + defaultName : folder + "/" + defaultName
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate, isDirectory: &isDirectory), !isDirectory.boolValue {
                return candidate
            }
            // `folder` is absolute and standardized: its parent is its spelling up to the last slash.
            guard folder != "/" else { return nil }
            folder = folderPath(of: folder)
        }
    }

    /// The files given with `--config`, merged in order; without any, the discovered file;
    /// without one, the empty configuration.
    /// `otherRuleIDs` names rules outside the engine's catalogue whose findings a run may hold
    /// (the source rules), so the configuration may name them too.
    public static func load(explicitFiles: [String], workingDirectory: String = FileManager.default.currentDirectoryPath,
                            catalogue: [any Rule.Type] = RuleCatalogue.all,
                            otherRuleIDs: [String] = []) throws(ConfigurationDiagnostic) -> Loaded {
        // A discovered file is named relative to the working directory, as the user would write it.
        let files = explicitFiles.isEmpty
            ? discover(from: workingDirectory).map { [FilePaths.relative($0, to: workingDirectory)] } ?? []
            : explicitFiles
        var merged = Loaded(configuration: LintConfiguration(), warnings: [])
        for file in files {
            let loaded = try read(file, base: workingDirectory, catalogue: catalogue, otherRuleIDs: otherRuleIDs)
            merged.configuration = merged.configuration.merged(with: loaded.configuration)
            merged.warnings += loaded.warnings
        }
        if !files.isEmpty && merged.configuration.rules(from: catalogue).isEmpty {
            merged.warnings.append(ConfigurationDiagnostic(.warning, file: files.last!, message: ConfigurationWording.noRulesLeft()))
        }
        return merged
    }

    /// Reads the file at `path`, relative to `base` when not absolute; messages name it as `path`.
    public static func read(_ path: String, base: String = FileManager.default.currentDirectoryPath,
                            catalogue: [any Rule.Type] = RuleCatalogue.all,
                            otherRuleIDs: [String] = []) throws(ConfigurationDiagnostic) -> Loaded {
        let absolutePath = FilePaths.absolute(path, base: base)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: absolutePath, isDirectory: &isDirectory) else {
            throw ConfigurationDiagnostic(.error, file: path, message: ConfigurationWording.notFound())
        }
        guard !isDirectory.boolValue else {
            throw ConfigurationDiagnostic(.error, file: path, message: ConfigurationWording.unreadable("it is a folder"))
        }
        let text: String
        do {
            // Bounded: a FIFO or a huge file given with --config cannot make momlint read forever.
            text = try SafeYAML.readText(atPath: absolutePath)
        } catch {
            throw ConfigurationDiagnostic(.error, file: path, message: error.kind == .unreadable
                ? ConfigurationWording.unreadable(error.message) : ConfigurationWording.refusedYAML(error.message))
        }
        let folder = (absolutePath as NSString).deletingLastPathComponent
        return try parse(text, file: path, folder: folder, catalogue: catalogue, otherRuleIDs: otherRuleIDs)
    }

    /// Parses configuration text. Relative paths in it are taken from `folder`.
    public static func parse(_ text: String, file: String, folder: String,
                             catalogue: [any Rule.Type] = RuleCatalogue.all,
                             otherRuleIDs: [String] = []) throws(ConfigurationDiagnostic) -> Loaded {
        let root: Node?
        do {
            root = try SafeYAML.compose(yaml: text)
        } catch let refusal as YAMLRefusal {
            throw ConfigurationDiagnostic(.error, file: file, line: refusal.line, column: refusal.column,
                                          message: ConfigurationWording.refusedYAML(refusal.message))
        } catch {
            throw diagnostic(for: error, file: file)
        }
        var reader = ConfigurationReader(file: file, folder: folder, catalogue: catalogue, otherRuleIDs: otherRuleIDs)
        guard let root else {  // an empty file or only comments
            return Loaded(configuration: LintConfiguration(files: [file]), warnings: [])
        }
        try reader.read(root)
        return Loaded(configuration: reader.configuration, warnings: reader.warnings)
    }

    /// Yams' errors span several lines and quote the file; keep the problem and its place.
    private static func diagnostic(for error: any Error, file: String) -> ConfigurationDiagnostic {
        switch error {
        case YamlError.scanner(let context, let problem, let mark, _),
             YamlError.parser(let context, let problem, let mark, _),
             YamlError.composer(let context, let problem, let mark, _):
            let detail = context.map { "\(problem) \($0.text)" } ?? problem
            return ConfigurationDiagnostic(.error, file: file, line: mark.line, column: mark.column,
                                           message: ConfigurationWording.invalidYAML(detail))
        case YamlError.reader(let problem, _, _, _):
            return ConfigurationDiagnostic(.error, file: file, message: ConfigurationWording.invalidYAML(problem))
        case YamlError.duplicatedKeysInMapping(let duplicates, let context):
            return ConfigurationDiagnostic(.error, file: file, line: context.mark.line, column: context.mark.column,
                                           message: ConfigurationWording.invalidYAML(
                                               "duplicated key \(duplicates.map { "'\($0)'" }.joined(separator: ", "))"))
        default:
            return ConfigurationDiagnostic(.error, file: file, message: ConfigurationWording.invalidYAML("\(error)"))
        }
    }
}

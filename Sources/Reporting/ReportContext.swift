import DataModel
import Foundation
import Linting

/// What reporters need besides the findings: which rules ran and how, which tool made the
/// report, and the folder paths are reported relative to. Volatile parts (version, folder)
/// live here so reporters stay pure and tests can pin them.
public struct ReportContext: Sendable {
    /// A rule that ran, with the severity its findings got in this run.
    public struct RuleInfo: Sendable {
        public var description: RuleDescription
        public var severity: Severity

        public init(description: RuleDescription, severity: Severity) {
            self.description = description
            self.severity = severity
        }

        public var id: String { description.id }
    }

    /// The project's home; SARIF and JSON name it as the tool's information URI.
    public static let projectURL = "https://github.com/momlint/momlint"

    public var toolName: String
    public var toolVersion: String
    public var informationURI: String
    /// Paths in SARIF, JUnit and GitHub annotations are relative to this folder (the
    /// repository root in CI).
    public var workingDirectory: String
    /// The rules that ran, in catalogue order.
    public var rules: [RuleInfo]

    public init(toolName: String = "momlint", toolVersion: String, informationURI: String = Self.projectURL,
                workingDirectory: String = FileManager.default.currentDirectoryPath, rules: [RuleInfo]) {
        self.toolName = toolName
        self.toolVersion = toolVersion
        self.informationURI = informationURI
        self.workingDirectory = workingDirectory
        self.rules = rules
    }

    /// The rules `engine` runs, with the severities it gives them.
    public init(engine: LintEngine, toolVersion: String,
                workingDirectory: String = FileManager.default.currentDirectoryPath) {
        self.init(toolVersion: toolVersion, workingDirectory: workingDirectory,
                  rules: engine.rules.map { RuleInfo(description: $0.description, severity: engine.severity(of: $0)) })
    }

    /// Where a rule's documentation (`Rules/<id>.md`) is published.
    public func documentationURI(forRule id: String) -> String {
        "\(informationURI)/blob/main/Rules/\(id).md"
    }

    /// `path` relative to the working directory when it lies inside it; otherwise absolute.
    public func displayPath(_ path: String) -> String {
        let absolute = FilePaths.absolute(path, base: workingDirectory)
        let root = FilePaths.absolute(workingDirectory)
        return FilePaths.isInside(absolute, root) ? FilePaths.relative(absolute, to: root, base: root) : absolute
    }
}

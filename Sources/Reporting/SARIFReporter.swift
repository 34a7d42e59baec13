import DataModel
import Foundation
import Linting

/// SARIF 2.1.0 as GitHub code scanning accepts it
/// (https://docs.github.com/en/code-security/code-scanning/integrating-with-code-scanning/sarif-support-for-code-scanning).
///
/// `tool.driver.rules` lists every rule that ran with its documentation; results point at the
/// element's start tag by a path relative to `%SRCROOT%` (the working directory) and carry a
/// line-free fingerprint. Inputs that could not be loaded are `toolExecutionNotifications`
/// of a failed invocation, so code scanning shows the run as incomplete instead of clean.
public enum SARIFReporter: Reporter {
    public static let name = "sarif"
    public static let summary = "SARIF 2.1.0 for GitHub code scanning and other SARIF viewers"
    public static let isWholeDocument = true
    static let sourceRootID = "%SRCROOT%"

    public static func report(_ run: LintRun, context: ReportContext) -> String {
        let findings = run.findings
        let fingerprints = FindingFingerprint.fingerprints(for: findings, context: context)
        let ruleIndexes = Dictionary(context.rules.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        let results = zip(findings, fingerprints).map { finding, fingerprint in
            var members: [(String, JSONValue)] = [("ruleId", .string(finding.ruleID))]
            if let index = ruleIndexes[finding.ruleID] { members.append(("ruleIndex", .integer(index))) }
            members += [
                // A severity's raw value is its SARIF level: `warning` or `error`.
                ("level", .string(finding.severity.rawValue)),
                ("message", .object([("text", .string(finding.message))])),
                ("locations", .array([location(of: finding, context: context)])),
                ("partialFingerprints", .object([(FindingFingerprint.key, .string(fingerprint))])),
            ]
            // A migration finding names every older version it is about (SARIF §3.8: a property bag).
            if !finding.olderVersions.isEmpty {
                members.append(("properties", .object([
                    ("olderVersions", .array(finding.olderVersions.map(JSONValue.string))),
                ])))
            }
            return JSONValue.object(members)
        }
        let notifications = run.loadFailures.map { failure in
            JSONValue.object([
                ("level", "error"),
                ("message", .object([("text", .string(failure.message))])),
                ("locations", .array([.object([("physicalLocation", physicalLocation(
                    file: failure.path, line: failure.line, column: failure.line == nil ? nil : failure.column ?? 1,
                    context: context))])])),
            ])
        }
        let root = URL(fileURLWithPath: FilePaths.absolute(context.workingDirectory), isDirectory: true).absoluteString
        return JSONValue.object([
            ("$schema", "https://json.schemastore.org/sarif-2.1.0.json"),
            ("version", "2.1.0"),
            ("runs", .array([.object([
                ("tool", .object([("driver", .object([
                    ("name", .string(context.toolName)),
                    ("version", .string(context.toolVersion)),
                    ("semanticVersion", .string(context.toolVersion)),
                    ("informationUri", .string(context.informationURI)),
                    ("rules", .array(context.rules.map { descriptor(for: $0, context: context) })),
                ]))])),
                ("invocations", .array([.object([
                    ("executionSuccessful", .boolean(run.loadFailures.isEmpty)),
                    ("toolExecutionNotifications", .array(notifications)),
                ])])),
                ("originalUriBaseIds", .object([(sourceRootID, .object([("uri", .string(root))]))])),
                ("columnKind", "unicodeCodePoints"),
                ("results", .array(results)),
            ])])),
        ]).rendered()
    }

    /// A rule's descriptor: its summary, and as help the rationale and fix `Rules/<id>.md` is generated from.
    private static func descriptor(for rule: ReportContext.RuleInfo, context: ReportContext) -> JSONValue {
        let description = rule.description
        let documentation = context.documentationURI(forRule: description.id)
        let fix = description.howToFix.isEmpty ? "" : "\n\nHow to fix: \(description.howToFix)"
        let helpText = "\(description.summary)\n\n\(description.rationale)\(fix)\n\nDocumentation: \(documentation)"
        let helpMarkdown = "**\(description.name)**: \(description.summary)\n\n\(description.rationale)"
            + (description.howToFix.isEmpty ? "" : "\n\n**How to fix:** \(description.howToFix)")
            + "\n\n[Documentation of \(description.id)](\(documentation))"
        return .object([
            ("id", .string(description.id)),
            ("name", .string(pascalCase(description.id))),
            ("shortDescription", .object([("text", .string(description.summary))])),
            ("fullDescription", .object([("text", .string(description.rationale))])),
            ("help", .object([("text", .string(helpText)), ("markdown", .string(helpMarkdown))])),
            ("helpUri", .string(documentation)),
            ("defaultConfiguration", .object([("level", .string(rule.severity.rawValue))])),
            ("properties", .object([
                ("category", .string(description.category.rawValue)),
                ("tags", .array([.string(description.category.rawValue)])),
            ])),
        ])
    }

    private static func location(of finding: Finding, context: ReportContext) -> JSONValue {
        var members: [(String, JSONValue)] = [("physicalLocation", physicalLocation(
            file: finding.location.file, line: finding.location.line, column: finding.location.column, context: context))]
        if let entity = finding.entityName {
            let name = finding.propertyName.map { "\(entity).\($0)" } ?? entity
            members.append(("logicalLocations", .array([.object([
                ("fullyQualifiedName", .string(name)),
                ("kind", finding.propertyName == nil ? "type" : "member"),
            ])])))
        }
        return .object(members)
    }

    private static func physicalLocation(file: String, line: Int?, column: Int?, context: ReportContext) -> JSONValue {
        let path = context.displayPath(file)
        let artifact: JSONValue = if path.hasPrefix("/") {
            .object([("uri", .string(URL(fileURLWithPath: path).absoluteString))])
        } else {
            .object([("uri", .string(uriReference(path))), ("uriBaseId", .string(sourceRootID))])
        }
        var members: [(String, JSONValue)] = [("artifactLocation", artifact)]
        if let line {
            var region: [(String, JSONValue)] = [("startLine", .integer(max(1, line)))]
            if let column { region.append(("startColumn", .integer(max(1, column)))) }
            members.append(("region", .object(region)))
        }
        return .object(members)
    }

    /// A relative path as a URI reference: each segment percent-encoded (`Model 2` -> `Model%202`).
    static func uriReference(_ relativePath: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: ":;")
        return relativePath.split(separator: "/", omittingEmptySubsequences: false)
            .map { $0.addingPercentEncoding(withAllowedCharacters: allowed) ?? String($0) }
            .joined(separator: "/")
    }

    /// `missing_inverse` -> `MissingInverse`, the form SARIF viewers show as a rule's name.
    static func pascalCase(_ id: String) -> String {
        id.split(separator: "_").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }
}

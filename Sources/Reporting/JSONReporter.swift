import Linting

/// One JSON object per run: `schemaVersion`, the tool, the models linted, every finding, and
/// the inputs that failed to load. The schema is documented in `docs/reporters.md`; any
/// change to it that is not an added key raises `schemaVersion`.
public enum JSONReporter: Reporter {
    public static let name = "json"
    public static let summary = "one JSON object with findings, models and load errors (schemaVersion 1)"
    public static let isWholeDocument = true
    public static let schemaVersion = 1

    public static func report(_ run: LintRun, context: ReportContext) -> String {
        JSONValue.object([
            ("schemaVersion", .integer(schemaVersion)),
            ("tool", .object([("name", .string(context.toolName)), ("version", .string(context.toolVersion))])),
            ("summary", .object([
                ("models", .integer(run.reports.count)),
                ("errors", .integer(run.count(of: .error))),
                ("warnings", .integer(run.count(of: .warning))),
                ("loadErrors", .integer(run.loadFailures.count)),
            ])),
            ("models", .array(run.reports.map { report in
                .object([
                    ("file", .string(report.model.file)),
                    ("bundle", .optional(report.model.version.bundlePath)),
                    ("version", .optional(report.model.version.name.isEmpty ? nil : report.model.version.name)),
                    ("findings", .integer(report.findings.count)),
                ])
            })),
            ("findings", .array(run.findings.map(json(for:)))),
            ("loadErrors", .array(run.loadFailures.map { failure in
                .object([
                    ("file", .string(failure.path)),
                    ("line", failure.line.map(JSONValue.integer) ?? .null),
                    ("column", failure.line == nil ? .null : .integer(failure.column ?? 1)),
                    ("message", .string(failure.message)),
                ])
            })),
            ("notes", .array(run.notes.map { note in
                .object([("file", .string(note.path)), ("message", .string(note.message))])
            })),
        ]).rendered()
    }

    private static func json(for finding: Finding) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("ruleId", .string(finding.ruleID)),
            ("severity", .string(finding.severity.rawValue)),
            ("message", .string(finding.message)),
            ("file", .string(finding.location.file)),
            ("line", .integer(finding.location.line)),
            ("column", .integer(finding.location.column)),
            ("entity", .optional(finding.entityName)),
            ("property", .optional(finding.propertyName)),
            ("suggestion", .optional(finding.suggestion)),
        ]
        // A migration finding names every older version it is about (one finding per cause).
        if !finding.olderVersions.isEmpty {
            members.append(("olderVersions", .array(finding.olderVersions.map(JSONValue.string))))
        }
        return .object(members)
    }
}

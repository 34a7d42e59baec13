import DataModel

/// A violation with the rule's id and effective severity attached: what reporters print.
public struct Finding: Hashable, Sendable {
    public var ruleID: String
    public var severity: Severity
    public var message: String
    public var location: SourceLocation
    public var entityName: String?
    public var propertyName: String?
    public var suggestion: String?
    /// For a migration finding: every older version whose stores the finding is about, in version
    /// order (one finding per cause, `LintEngine.lintMigrations`); empty otherwise.
    public var olderVersions: [String]

    public init(ruleID: String, severity: Severity, message: String, location: SourceLocation,
                entityName: String? = nil, propertyName: String? = nil, suggestion: String? = nil,
                olderVersions: [String] = []) {
        self.ruleID = ruleID
        self.severity = severity
        self.message = message
        self.location = location
        self.entityName = entityName
        self.propertyName = propertyName
        self.suggestion = suggestion
        self.olderVersions = olderVersions
    }

    /// The message and suggestion quote names from the model, so they are made printable on
    /// one line here, once for every reporter (see `PrintableText`).
    public init(_ violation: Violation, ruleID: String, severity: Severity) {
        self.init(ruleID: ruleID, severity: severity, message: PrintableText.escaped(violation.message),
                  location: violation.location, entityName: violation.entityName,
                  propertyName: violation.propertyName, suggestion: violation.suggestion.map(PrintableText.escaped))
    }

    /// Findings sort by file, line, column, then rule id, so output is deterministic.
    public static func reportOrder(_ lhs: Finding, _ rhs: Finding) -> Bool {
        if lhs.location != rhs.location { return lhs.location < rhs.location }
        if lhs.ruleID != rhs.ruleID { return lhs.ruleID < rhs.ruleID }
        return lhs.message < rhs.message
    }
}

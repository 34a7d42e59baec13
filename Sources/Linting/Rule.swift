import DataModel

/// What a rule is, for the catalogue, `momlint rules` and the generated `Rules/<id>.md`.
///
/// The examples are the rule's tests: one generic test runs every example through the engine,
/// and the generated documentation shows the very same snippets, so docs and behaviour cannot
/// drift apart.
public struct RuleDescription: Sendable {
    /// Stable snake_case id. CI configurations and baselines depend on it: never rename one.
    public var id: String
    /// A short title, e.g. "Missing Inverse".
    public var name: String
    /// One sentence: what the rule flags.
    public var summary: String
    /// Why it matters, citing Apple's documentation or the Core Data behaviour at stake.
    public var rationale: String
    /// Where the rationale comes from: Apple documentation URLs, and sections of
    /// `docs/coredata-semantics.md` (cited as `docs/coredata-semantics.md §N`).
    public var sources: [String]
    /// What to change in the model, in words. Every model rule gives one (a test checks); it
    /// defaults to empty only so that rules documented by hand elsewhere (the source rules) need
    /// not repeat their page here.
    public var howToFix: String
    public var category: RuleCategory
    /// The severity of the rule's findings unless a finding carries its own
    /// (`Violation.severity`): `error` when what the rule finds makes the model fail to build or
    /// fail at run time, `warning` otherwise. The rationale says why.
    public var defaultSeverity: Severity
    /// Models that must produce findings exactly where the `↓` markers are.
    public var triggeringExamples: [RuleExample]
    /// Models that must produce no finding of this rule.
    public var nonTriggeringExamples: [RuleExample]
    /// Whether the rule can fire on a model read from SwiftData `@Model` classes; by default
    /// the entry of `SwiftDataApplicability.byRuleID` for `id`.
    public var swiftData: SwiftDataApplicability

    public init(id: String, name: String, summary: String, rationale: String, sources: [String] = [],
                howToFix: String = "", category: RuleCategory, defaultSeverity: Severity,
                triggeringExamples: [RuleExample] = [], nonTriggeringExamples: [RuleExample] = [],
                swiftData: SwiftDataApplicability? = nil) {
        self.id = id
        self.name = name
        self.summary = summary
        self.rationale = rationale
        self.sources = sources
        self.howToFix = howToFix
        self.category = category
        self.defaultSeverity = defaultSeverity
        self.triggeringExamples = triggeringExamples
        self.nonTriggeringExamples = nonTriggeringExamples
        self.swiftData = swiftData ?? SwiftDataApplicability.forRule(id: id)
    }
}

public enum RuleCategory: String, Sendable, CaseIterable, Codable {
    case relationships = "Relationship integrity"
    case names = "Names"
    case types = "Types and values"
    case deleteRules = "Delete rules"
    case structure = "Structure and versions"
    case cloudKit = "CloudKit"
    case migration = "Migration"
}

/// A check over one model. A rule is pure: the same model always gives the same
/// violations, and it reads nothing but the model. The engine, not the rule, attaches the
/// id and severity, so rules cannot disagree on them.
public protocol Rule: Sendable {
    static var description: RuleDescription { get }
    init()
    func violations(in model: LintedModel) -> [Violation]
    /// This rule as a rule over two versions, when it is one. Given by the protocols (nil here,
    /// itself for a `MigrationRule`): never implement it. It spares the engine a dynamic cast,
    /// which the first time searches every protocol conformance in the binary (docs/benchmarks.md,
    /// "Start-up").
    var asMigrationRule: (any MigrationRule)? { get }
    /// This rule as a rule over a SwiftData folder's versioned schemas, when it is one; given
    /// by the protocols like `asMigrationRule`.
    var asSchemaVersionsRule: (any SchemaVersionsRule)? { get }
}

extension Rule {
    public var asMigrationRule: (any MigrationRule)? { nil }
    public var asSchemaVersionsRule: (any SchemaVersionsRule)? { nil }
}

/// What a rule reports: where, what, and what to do about it.
public struct Violation: Hashable, Sendable {
    /// Lowercase, quoting the element, saying what to do.
    public var message: String
    public var location: SourceLocation
    public var entityName: String?
    public var propertyName: String?
    /// The fix in words, when it is unambiguous.
    public var suggestion: String?
    /// The severity of this finding when it differs from the rule's default: a rule whose
    /// findings range from "fails at run time" to "harmless leftover" says so per finding. nil
    /// means the rule's `defaultSeverity`. A severity configured for the rule still wins over it.
    public var severity: Severity?

    public init(message: String, location: SourceLocation, entityName: String? = nil,
                propertyName: String? = nil, suggestion: String? = nil, severity: Severity? = nil) {
        self.message = message
        self.location = location
        self.entityName = entityName
        self.propertyName = propertyName
        self.suggestion = suggestion
        self.severity = severity
    }
}

import DataModel
import Linting
import Testing

/// The engine's side of the migration rules: options reach them, a rejected option stops the
/// engine from being built, and only migration rules run over pairs.
@Suite struct MigrationEngineTests {
    /// Reports a pair whose diff has more than `limit` changes (default 100).
    struct ChangeCountTestRule: MigrationRule, ConfigurableRule {
        static let description = RuleDescription(
            id: "test_change_count", name: "Change Count", summary: "Too many changes.", rationale: "A test rule.",
            category: .migration, defaultSeverity: .warning)
        static let options = [RuleOptionDescription(name: "limit", summary: "Most changes allowed; default 100.")]
        let limit: Int

        init() { limit = 100 }

        init(options: RuleOptions) throws(RuleOptionError) {
            limit = try options.integer("limit", in: 0...1_000) ?? 100
        }

        func violations(in pair: MigrationPair) -> [Violation] {
            guard pair.diff.changes.count > limit else { return [] }
            return [Violation(message: "\(pair.diff.changes.count) changes, more than \(limit)", location: pair.current.location)]
        }
    }

    /// Reports every pair as an error, a severity of its own above its rule's default.
    struct OwnSeverityTestRule: MigrationRule {
        static let description = RuleDescription(
            id: "test_own_severity", name: "Own Severity", summary: "Every pair.", rationale: "A test rule.",
            category: .migration, defaultSeverity: .warning)

        func violations(in pair: MigrationPair) -> [Violation] {
            [Violation(message: "a pair", location: pair.current.location, severity: .error)]
        }
    }

    static func version(_ name: String, _ entities: String, current: Bool) throws -> Model {
        let text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">\(entities)</model>
            """
        return try ModelLoader().model(
            fromContents: Array(text.utf8), file: "M.xcdatamodeld/\(name).xcdatamodel/contents",
            version: ModelVersion(bundlePath: "M.xcdatamodeld", name: name, bundleVersionNames: ["M", "M 2"],
                                  selection: current ? .declaredCurrent : .otherVersion))
    }

    /// Whether a mapping model covers a pair is asked (a walk of the linted folders) only when
    /// the answer changes something: a change the inferred mapping cannot make or loses data by.
    @Test func theMappingModelIsLookedForOnlyWhenItMatters() throws {
        var asked = 0
        func covered() -> Bool {
            asked += 1
            return true
        }
        let older = try Self.version("M", #"<entity name="A"><attribute name="a" optional="YES" attributeType="String"/></entity>"#, current: false)
        let added = try Self.version("M 2", #"<entity name="A"><attribute name="a" optional="YES" attributeType="String"/></entity><entity name="B"/>"#, current: true)
        let removed = try Self.version("M 2", #"<entity name="A"/>"#, current: true)
        let lightweight = MigrationPair(older: older, current: added, hasMappingModel: covered())
        #expect(asked == 0)
        #expect(!lightweight.diff.hasMappingModel && lightweight.diff.verdict == .lightweight)
        let losing = MigrationPair(older: older, current: removed, hasMappingModel: covered())
        #expect(asked == 1)
        #expect(losing.diff.hasMappingModel && losing.diff.losesData)
        _ = MigrationPair(older: older, current: removed, hasMappingModel: covered(), comparesMigration: false)
        #expect(asked == 1)
    }

    static func pair() throws -> MigrationPair {
        MigrationPair(
            older: try version("M", #"<entity name="A"/>"#, current: false),
            current: try version("M 2", #"<entity name="A"/><entity name="B"/><entity name="C"/>"#, current: true))
    }

    @Test func configuredOptionsReachMigrationRules() throws {
        let pair = try Self.pair()
        #expect(pair.diff.changes.count == 2)
        #expect(LintEngine(rules: [ChangeCountTestRule.self]).lintMigrations([pair]).isEmpty)
        let strict = try LintEngine(rules: [ChangeCountTestRule.self],
                                    options: ["test_change_count": RuleOptions(["limit": "1"])])
        let findings = strict.lintMigrations([pair])
        #expect(findings.map(\.message) == ["2 changes, more than 1"])
        #expect(findings.map(\.ruleID) == ["test_change_count"])
        #expect(findings.map(\.location) == [pair.current.location])
        let lenient = try LintEngine(rules: [ChangeCountTestRule.self],
                                     options: ["test_change_count": RuleOptions(["limit": "2"])])
        #expect(lenient.lintMigrations([pair]).isEmpty)
    }

    /// Migration findings take their severity as `lint`'s do: a configured one, else the
    /// finding's own, else the rule's default; a downgrade lowers an unconfigured one to a
    /// warning. The engine used to give every migration finding its rule's severity.
    @Test func aMigrationFindingKeepsItsOwnSeverity() throws {
        let pair = try Self.pair()
        #expect(LintEngine(rules: [OwnSeverityTestRule.self]).lintMigrations([pair]).map(\.severity) == [.error])
        let configured = LintEngine(rules: [OwnSeverityTestRule.self], severityOverrides: ["test_own_severity": .warning])
        #expect(configured.lintMigrations([pair]).map(\.severity) == [.warning])
        let current = try Self.version("M", #"<entity name="A"/>"#, current: true)
        let later = try Self.version("M 2", #"<entity name="A"/><entity name="B"/>"#, current: false)
        let downgrade = MigrationPair(older: later, current: current, olderIsOrderedAfterCurrent: true)
        #expect(LintEngine(rules: [OwnSeverityTestRule.self]).lintMigrations([downgrade]).map(\.severity) == [.warning])
    }

    /// It used to be built per bundle with `try?`, running its defaults on a bad option.
    @Test func aRejectedOptionOfAMigrationRuleStopsTheEngine() {
        #expect(throws: RejectedRuleOption(ruleID: "test_change_count",
                                           error: RuleOptionError(option: "limit", problem: "expects a whole number, not 'many'"))) {
            try LintEngine(rules: [MissingInverseRule.self, ChangeCountTestRule.self],
                           options: ["test_change_count": RuleOptions(["limit": "many"])])
        }
        let rejected = RejectedRuleOption(ruleID: "test_change_count",
                                          error: RuleOptionError(option: "limit", problem: "expects a whole number, not 'many'"))
        #expect(rejected.description == "rule 'test_change_count': option 'limit' expects a whole number, not 'many'")
    }

    @Test func onlyMigrationRulesRunOverPairs() throws {
        let pair = try Self.pair()
        #expect(!LintEngine(rules: [MissingInverseRule.self]).checksMigrations)
        #expect(LintEngine(rules: [MissingInverseRule.self, ChangeCountTestRule.self]).checksMigrations)
        let engine = try LintEngine(rules: [MissingInverseRule.self, ChangeCountTestRule.self],
                                    options: ["test_change_count": RuleOptions(["limit": "0"])])
        #expect(engine.lintMigrations([pair]).map(\.ruleID) == ["test_change_count"])
        // Over one model, a migration rule finds nothing.
        #expect(engine.lint(pair.current).isEmpty)
    }

    /// CoreDataPlus's `SampleModel2` → `SampleModel` (its declared current version, ordered
    /// first) was an error with `--all-versions`: a store of a version ordered after the current
    /// one reaches it only on a downgrade.
    @Test func aVersionOrderedAfterTheCurrentOneGivesWarnings() throws {
        let current = try Self.version("M", #"<entity name="A"><attribute name="id" attributeType="UUID"/></entity>"#, current: true)
        let later = try Self.version("M 2", #"<entity name="A"/>"#, current: false)
        let engine = LintEngine(rules: [MigrationRequiredWithoutDefaultRule.self])
        let update = engine.lintMigrations([MigrationPair(older: later, current: current)])
        #expect(update.map(\.severity) == [.error])
        let downgrade = engine.lintMigrations([MigrationPair(older: later, current: current, olderIsOrderedAfterCurrent: true)])
        #expect(downgrade.map(\.severity) == [.warning])
        #expect(downgrade.first?.message.hasSuffix(
            "; 'M 2' is ordered after the current version 'M', so its stores meet it only if the app is downgraded") == true,
            "\(downgrade)")
        // A severity set in the configuration still wins.
        let configured = LintEngine(rules: [MigrationRequiredWithoutDefaultRule.self],
                                    severityOverrides: ["migration_required_without_default": .error])
        #expect(configured.lintMigrations([MigrationPair(older: later, current: current, olderIsOrderedAfterCurrent: true)])
            .map(\.severity) == [.error])
    }

    /// Moonlight's `Settings.uniqueId`: absent from one older version, optional in another,
    /// required with no default in the current one. One element, one rule: one finding, whose
    /// message gives both reasons once each, sharing what they share, and names both versions.
    @Test func differentCausesAtOneElementAreOneFinding() throws {
        let current = try Self.version("M 3", #"<entity name="A"><attribute name="id" attributeType="String"/></entity>"#, current: true)
        let absent = try Self.version("M", #"<entity name="A"/>"#, current: false)
        let optional = try Self.version("M 2", #"<entity name="A"><attribute name="id" optional="YES" attributeType="String"/></entity>"#, current: false)
        let optionalToo = try Self.version("M 2b", #"<entity name="A"><attribute name="id" optional="YES" attributeType="String"/></entity>"#, current: false)
        let engine = LintEngine(rules: [MigrationRequiredWithoutDefaultRule.self])
        let findings = engine.lintMigrations([MigrationPair(older: absent, current: current),
                                              MigrationPair(older: optional, current: current),
                                              MigrationPair(older: optionalToo, current: current)])
        #expect(findings.count == 1)
        #expect(findings.first?.olderVersions == ["M", "M 2", "M 2b"])
        #expect(findings.first?.message == "'A.id' is required in 'M 3' with no default value; "
            + "rows written by 'M' have no value for it, so the migration fails (134110) if the store holds any; "
            + "rows written by 2 older versions, 'M 2' and 'M 2b', that have no value for it make the migration fail (134110); "
            + "give it a default value or make it optional", "\(findings)")
    }

    @Test func olderVersionsAreNamedByCountBeyondThree() {
        #expect(MigrationPair.quoted(olderVersions: ["A"]) == "'A'")
        #expect(MigrationPair.quoted(olderVersions: ["A", "B"]) == "2 older versions, 'A' and 'B',")
        #expect(MigrationPair.quoted(olderVersions: ["A", "B", "C"]) == "3 older versions, 'A', 'B' and 'C',")
        #expect(MigrationPair.quoted(olderVersions: (1...48).map { "V\($0)" }) == "48 older versions, 'V1' … 'V48',")
    }
}

import Configuring
import Foundation
import Linting
import ModelDiff
import Testing

/// `.momlint.yml`: reading, warnings with their places, merging, and what the engine gets.
@Suite struct ConfigurationTests {
    let folder = "/project"

    private func parse(_ yaml: String) throws -> ConfigurationFile.Loaded {
        try ConfigurationFile.parse(yaml, file: ".momlint.yml", folder: folder, catalogue: TestRules.all)
    }

    @Test func readsEveryKey() throws {
        let loaded = try parse("""
            included: [Models]
            excluded:
              - Models/Legacy.xcdatamodeld
              - "Generated/*"
            disabled_rules: [test_no_action]
            only_rules: [test_required_string, test_no_action, test_attribute_limit]
            strict: yes
            test_required_string: warning
            test_attribute_limit:
              severity: error
              limit: 3
            """)
        #expect(loaded.warnings.isEmpty)
        let configuration = loaded.configuration
        #expect(configuration.included == ["/project/Models"])
        #expect(configuration.excluded == ["/project/Models/Legacy.xcdatamodeld", "/project/Generated/*"])
        #expect(configuration.strict == true)
        #expect(configuration.rules(from: TestRules.all).map { $0.description.id } == ["test_required_string", "test_attribute_limit"])
        let engine = try configuration.engine(catalogue: TestRules.all)
        #expect(engine.severityOverrides == ["test_required_string": .warning, "test_attribute_limit": .error])
        #expect(engine.options == ["test_attribute_limit": RuleOptions(["limit": "3"])])
    }

    @Test func emptyFileChangesNothing() throws {
        let configuration = try parse("# nothing yet\n").configuration
        #expect(configuration.rules(from: TestRules.all).count == TestRules.all.count)
        let engine = try configuration.engine(catalogue: TestRules.all)
        #expect(engine.severityOverrides.isEmpty && engine.options.isEmpty)
        #expect(configuration.paths(arguments: []) == ["."])
        #expect(configuration.paths(arguments: ["A.xcdatamodeld"]) == ["A.xcdatamodeld"])
    }

    @Test func migrationSettingsAreRead() throws {
        let loaded = try parse("""
            migration:
              all_versions: yes
              since: origin/main
              path: stepwise
              version_order:
                Model.xcdatamodeld: [Initial, Spring, Summer]
                Sub/Other.xcdatamodeld: [B, A]
              nonsense: 1
            """)
        let migration = loaded.configuration.migration
        #expect(migration.allVersions == true)
        #expect(migration.since == "origin/main")
        #expect(migration.path == .stepwise)
        #expect(migration.versionOrder["Model.xcdatamodeld"] == ["Initial", "Spring", "Summer"])
        #expect(migration.versionOrder["/project/Sub/Other.xcdatamodeld"] == ["B", "A"])
        #expect(loaded.warnings.map(\.description) == [
            ".momlint.yml:8:3: warning: unknown key 'nonsense' in 'migration'; ignoring it; keys: all_versions, since, path, version_order",
        ])
        let sideways = try parse("migration:\n  path: sideways\n")
        #expect(sideways.configuration.migration.path == nil)
        #expect(sideways.warnings.map(\.description) == [
            ".momlint.yml:2:9: warning: 'migration.path' expects 'direct' (Core Data migrates each older version straight "
                + "to the current one) or 'stepwise' (the app migrates each version to the next), not 'sideways'; ignoring it",
        ])
    }

    @Test func unknownKeysAndRuleIDsWarnWithTheirPlaceAndASuggestion() throws {
        let loaded = try parse("""
            disabled_rule: [test_no_action]
            only_rules: [test_no_actoin, nonsense_rule_id_here]
            """)
        #expect(loaded.warnings.map(\.description) == [
            ".momlint.yml:1:1: warning: unknown key 'disabled_rule' is neither a configuration key nor a rule id; "
                + "ignoring it (did you mean 'disabled_rules'?); keys: included, excluded, disabled_rules, only_rules, strict, sources, swiftdata, swiftdata_cloudkit, migration",
            ".momlint.yml:2:14: warning: unknown rule id 'test_no_actoin' in 'only_rules'; ignoring it (did you mean 'test_no_action'?)",
            ".momlint.yml:2:30: warning: unknown rule id 'nonsense_rule_id_here' in 'only_rules'; ignoring it; "
                + "'momlint rules' lists the rule ids",
        ])
        #expect(loaded.configuration.onlyRules == [])
    }

    @Test func badValuesWarnAndKeepDefaults() throws {
        let loaded = try parse("""
            test_required_string: fatal
            test_no_action: {limit: 2}
            test_attribute_limit: {lmit: 2}
            strict: maybe
            disabled_rules: {test_no_action: true}
            """)
        #expect(loaded.warnings.map(\.message) == [
            "'test_required_string' severity must be 'warning' or 'error', not 'fatal'; keeping its default",
            "rule 'test_no_action' takes no options; ignoring 'limit'",
            "rule 'test_attribute_limit' has no option 'lmit'; ignoring it (options: limit)",
            "'strict' expects true or false, not 'maybe'; ignoring it",
            "'disabled_rules' expects a list (e.g. 'disabled_rules: [a, b]'); ignoring it",
        ])
        let engine = try loaded.configuration.engine(catalogue: TestRules.all)
        #expect(engine.severityOverrides.isEmpty && engine.options.isEmpty)
    }

    /// Every list key takes a single value as a list of one, as `excluded` always did;
    /// `only_rules: x` used to be ignored with a warning, running every rule.
    @Test func everyListKeyTakesASingleValue() throws {
        let loaded = try parse("""
            only_rules: test_no_action
            disabled_rules: test_required_string
            excluded: Legacy
            included: App
            sources: Sources
            """)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.configuration.onlyRules == ["test_no_action"])
        #expect(loaded.configuration.disabledRules == ["test_required_string"])
        #expect(loaded.configuration.excluded.count == 1 && loaded.configuration.included?.count == 1)
        #expect(loaded.configuration.sources.count == 1)
        let typo = try parse("only_rules: test_no_actoin\n")
        #expect(typo.warnings.map(\.message) == ["unknown rule id 'test_no_actoin' in 'only_rules'; ignoring it (did you mean 'test_no_action'?)"])
    }

    @Test func anOptionTheRuleRejectsIsAnError() throws {
        let configuration = try parse("test_attribute_limit: {limit: many}").configuration
        #expect(throws: ConfigurationDiagnostic.self) { try configuration.engine(catalogue: TestRules.all) }
        do {
            _ = try configuration.engine(catalogue: TestRules.all)
        } catch {
            #expect(error.description == ".momlint.yml: error: rule 'test_attribute_limit': option 'limit' expects a whole number, not 'many'")
        }
    }

    /// Migration rules used to be built per bundle with `try?`, running their defaults when an
    /// option was rejected; now every rule is built once, with the engine, and a rejected
    /// option is the configuration's error.
    @Test func anOptionAMigrationRuleRejectsIsAnError() throws {
        let catalogue = TestRules.all + [VersionLimitTestRule.self]
        func configuration(_ yaml: String) throws -> LintConfiguration {
            try ConfigurationFile.parse(yaml, file: ".momlint.yml", folder: folder, catalogue: catalogue).configuration
        }
        let rejected = try configuration("test_version_limit: {limit: -1}")
        #expect(throws: ConfigurationDiagnostic(
            .error, file: ".momlint.yml",
            message: "rule 'test_version_limit': option 'limit' expects a number from 0 to 10, not -1")) {
            try rejected.engine(catalogue: catalogue)
        }
        let accepted = try configuration("test_version_limit: {limit: 3}").engine(catalogue: catalogue)
        #expect(accepted.checksMigrations)
        #expect(accepted.options == ["test_version_limit": RuleOptions(["limit": "3"])])
    }

    @Test func invalidYAMLIsOneErrorLineWithItsPlace() {
        #expect {
            try parse("only_rules: [test_no_action\nstrict: true\n")
        } throws: { error in
            let diagnostic = error as? ConfigurationDiagnostic
            return diagnostic?.level == .error && diagnostic?.line != nil
                && diagnostic!.description.hasPrefix(".momlint.yml:") && !diagnostic!.description.contains("\n")
                && diagnostic!.message.hasPrefix("invalid YAML: ")
        }
        #expect(throws: ConfigurationDiagnostic.self) { try parse("- just\n- a list\n") }
    }

    @Test func laterFilesWinAndListsAddUp() throws {
        let base = try parse("""
            included: [Models]
            excluded: [Old]
            disabled_rules: [test_no_action]
            test_required_string: warning
            test_attribute_limit: {severity: error, limit: 5}
            """).configuration
        let ci = try ConfigurationFile.parse("""
            excluded: [Generated]
            disabled_rules: [test_model_level]
            strict: true
            test_attribute_limit: {limit: 2}
            """, file: "ci.yml", folder: "/project/ci", catalogue: TestRules.all).configuration
        let merged = base.merged(with: ci)
        #expect(merged.included == ["/project/Models"])
        #expect(merged.excluded == ["/project/Old", "/project/ci/Generated"])
        #expect(merged.disabledRules == ["test_no_action", "test_model_level"])
        #expect(merged.strict == true)
        #expect(merged.files == [".momlint.yml", "ci.yml"])
        let engine = try merged.engine(catalogue: TestRules.all)
        #expect(engine.severityOverrides == ["test_required_string": .warning, "test_attribute_limit": .error])
        #expect(engine.options["test_attribute_limit"] == RuleOptions(["limit": "2"]))
    }

    @Test func configuredEngineChangesFindings() throws {
        let configuration = try parse("""
            only_rules: [test_required_string, test_attribute_limit]
            test_required_string: warning
            test_attribute_limit: {limit: 1, severity: error}
            """).configuration
        let run = LintRun(paths: [TestPaths.library], engine: try configuration.engine(catalogue: TestRules.all))
        #expect(Set(run.findings.map(\.ruleID)) == ["test_required_string", "test_attribute_limit"])
        #expect(run.findings.filter { $0.ruleID == "test_required_string" }.allSatisfy { $0.severity == .warning })
        // Book has two attributes, over the limit of 1.
        #expect(run.findings.filter { $0.ruleID == "test_attribute_limit" }.map(\.entityName) == ["Book"])
        #expect(run.findings.filter { $0.ruleID == "test_attribute_limit" }.allSatisfy { $0.severity == .error })
    }

    @Test func excludedPathsAndPatternsDropModelsAndFailures() throws {
        let configuration = try ConfigurationFile.parse("excluded: [Broken, 'Lib*']", file: "c.yml",
                                                        folder: TestPaths.fixtures, catalogue: TestRules.all).configuration
        #expect(configuration.isExcluded(TestPaths.broken + "/contents"))
        #expect(configuration.isExcluded(TestPaths.library + "/Library.xcdatamodel/contents"))
        #expect(!configuration.isExcluded(TestPaths.fixtures + "/Other.xcdatamodeld"))
        let run = configuration.excluding(from: Fixture.run())
        #expect(run.reports.isEmpty && run.loadFailures.isEmpty)
    }

    @Test func discoveryWalksUpFromTheWorkingDirectory() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-config-\(UUID().uuidString)")
        let nested = root.appendingPathComponent("a/b/c")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(ConfigurationFile.discover(from: nested.path).map { !$0.hasPrefix(root.path) } ?? true)
        let file = root.appendingPathComponent("a/.momlint.yml")
        try "strict: true\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(ConfigurationFile.discover(from: nested.path) == file.standardizedFileURL.path)
        let loaded = try ConfigurationFile.load(explicitFiles: [], workingDirectory: nested.path, catalogue: TestRules.all)
        #expect(loaded.configuration.strict == true)
    }

    @Test func missingConfigurationFileIsAnError() {
        #expect(throws: ConfigurationDiagnostic(.error, file: "/nope/.momlint.yml", message: "no such configuration file")) {
            try ConfigurationFile.load(explicitFiles: ["/nope/.momlint.yml"], catalogue: TestRules.all)
        }
    }

    /// Findings added after the engine (the source rules of `--sources`) obey the same
    /// configuration: rule lists, severities and `momlint:disable`.
    @Test func configurationAppliesToFindingsFromOutsideTheEngine() throws {
        let loaded = try ConfigurationFile.parse("""
            disabled_rules: [source_gone]
            source_kept: error
            source_kept_too: {limit: 3}
            """, file: ".momlint.yml", folder: folder, catalogue: TestRules.all,
            otherRuleIDs: ["source_gone", "source_kept", "source_kept_too"])
        #expect(loaded.warnings.map(\.message) == ["rule 'source_kept_too' takes no options; ignoring 'limit'"])
        let run = Fixture.run(engine: LintEngine(rules: []))
        let model = run.reports[0].model
        func finding(_ rule: String, _ entity: String, _ property: String?) -> Finding {
            Finding(ruleID: rule, severity: .warning, message: "m", location: .init(file: "Book.swift", line: 1, column: 1),
                    entityName: entity, propertyName: property)
        }
        let withSources = LintRun(reports: [.init(model: model, findings: [
            finding("source_gone", "Book", "title"), finding("source_kept", "Book", "title"),
            finding("source_kept_too", "Book", "pages"),
        ])], loadFailures: [], notes: [])
        let applied = loaded.configuration.applied(to: withSources)
        #expect(applied.findings.map { "\($0.ruleID) \($0.severity)" } == ["source_kept error", "source_kept_too warning"])
    }
}

/// A configurable migration rule, for the option checks above.
struct VersionLimitTestRule: MigrationRule, ConfigurableRule {
    static let description = RuleDescription(
        id: "test_version_limit", name: "Version Limit", summary: "A test rule.", rationale: "A test rule.",
        category: .migration, defaultSeverity: .warning)
    static let options = [RuleOptionDescription(name: "limit", summary: "A number from 0 to 10.")]

    init() {}

    init(options: RuleOptions) throws(RuleOptionError) {
        _ = try options.integer("limit", in: 0...10)
    }

    func violations(in pair: MigrationPair) -> [Violation] { [] }
}

import DataModel
import Foundation
import Linting
import Reporting

/// Paths into the package, found from this file so tests do not depend on the working directory.
enum TestPaths {
    static let packageRoot: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    static let testsFolder = packageRoot + "/Tests/ReportingTests"
    static let fixtures = testsFolder + "/Fixtures"
    static let library = fixtures + "/Library.xcdatamodeld"
    static let broken = fixtures + "/Broken/Broken.xcdatamodel"
    static let expected = testsFolder + "/Expected"
    /// The real-world models beside the package, read-only; tests skip when it is absent.
    static let corpus = packageRoot + "/../shared/corpus/models"
}

// MARK: Test-only rules, so reporter outputs do not change when the real catalogue grows.

/// Flags required String attributes, as an error.
struct RequiredStringTestRule: Rule {
    static let description = RuleDescription(
        id: "test_required_string", name: "Required String", summary: "A String attribute is required.",
        rationale: "A test rule: it gives the fixtures an error-severity finding on an attribute.",
        category: .types, defaultSeverity: .error)

    func violations(in model: LintedModel) -> [Violation] {
        model.entities.flatMap { entity in
            entity.attributes.filter { $0.attributeType == .string && !$0.isOptional }.map { attribute in
                Violation(message: "'\(entity.name).\(attribute.name)' is a required String; make it optional or give it a default",
                          location: attribute.location, entityName: entity.name, propertyName: attribute.name)
            }
        }
    }
}

/// Flags No Action delete rules, as a warning.
struct NoActionTestRule: Rule {
    static let description = RuleDescription(
        id: "test_no_action", name: "No Action", summary: "A relationship uses the No Action delete rule.",
        rationale: "A test rule: it gives the fixtures a warning on a relationship, with \"quotes\" & <markup>.",
        category: .deleteRules, defaultSeverity: .warning)

    func violations(in model: LintedModel) -> [Violation] {
        model.entities.flatMap { entity in
            entity.relationships.filter { $0.deletionRule == .noAction }.map { relationship in
                Violation(message: "'\(entity.name).\(relationship.name)' uses No Action, which leaves dangling references",
                          location: relationship.location, entityName: entity.name, propertyName: relationship.name)
            }
        }
    }
}

/// Flags a model whose minimum tools version is Automatic: a finding about no entity.
struct ModelLevelTestRule: Rule {
    static let description = RuleDescription(
        id: "test_model_level", name: "Model Level", summary: "The model says minimumToolsVersion Automatic.",
        rationale: "A test rule: it gives the fixtures a finding about the model as a whole.",
        category: .structure, defaultSeverity: .warning)

    func violations(in model: LintedModel) -> [Violation] {
        guard model.minimumToolsVersion == "Automatic" else { return [] }
        return [Violation(message: "the model's minimumToolsVersion is 'Automatic'", location: model.location)]
    }
}

/// Flags entities with more attributes than `limit` (default 1): a rule with an option.
struct AttributeLimitTestRule: ConfigurableRule {
    static let description = RuleDescription(
        id: "test_attribute_limit", name: "Attribute Limit", summary: "An entity has too many attributes.",
        rationale: "A test rule with an option, to test rule options.", category: .structure, defaultSeverity: .warning)
    static let options = [RuleOptionDescription(name: "limit", summary: "The most attributes allowed; default 1.")]

    var limit = 1

    init() {}

    init(options: RuleOptions) throws(RuleOptionError) {
        limit = try options.integer("limit", in: 0...10_000) ?? 1
    }

    func violations(in model: LintedModel) -> [Violation] {
        model.entities.filter { $0.attributes.count > limit }.map { entity in
            Violation(message: "'\(entity.name)' has \(entity.attributes.count) attributes, over the limit of \(limit)",
                      location: entity.location, entityName: entity.name)
        }
    }
}

enum TestRules {
    /// The rules the expected outputs were made with.
    static let reporting: [any Rule.Type] = [RequiredStringTestRule.self, NoActionTestRule.self, ModelLevelTestRule.self]
    static let all: [any Rule.Type] = reporting + [AttributeLimitTestRule.self]
}

// MARK: Runs and expected outputs

enum Fixture {
    static let toolVersion = "9.8.7"

    /// The library model (errors and warnings) and the broken one (a load failure).
    static func run(engine: LintEngine = LintEngine(rules: TestRules.reporting)) -> LintRun {
        LintRun(paths: [TestPaths.library, TestPaths.broken], engine: engine)
    }

    static func context(engine: LintEngine = LintEngine(rules: TestRules.reporting)) -> ReportContext {
        ReportContext(engine: engine, toolVersion: toolVersion, workingDirectory: TestPaths.packageRoot)
    }

    /// `text` with the volatile parts replaced by placeholders: `{{ROOT_URI}}`, `{{ROOT}}`, `{{VERSION}}`.
    static func normalized(_ text: String) -> String {
        let rootURI = URL(fileURLWithPath: TestPaths.packageRoot, isDirectory: true).absoluteString
        return text.replacing(rootURI, with: "{{ROOT_URI}}")
            .replacing(TestPaths.packageRoot, with: "{{ROOT}}")
            .replacing(toolVersion, with: "{{VERSION}}")
    }

    /// The committed expected output; with `MOMLINT_UPDATE_EXPECTED=1`, first rewritten from `actual`.
    static func expected(_ name: String, actual: String) throws -> String {
        let path = TestPaths.expected + "/" + name
        if ProcessInfo.processInfo.environment["MOMLINT_UPDATE_EXPECTED"] == "1" {
            try normalized(actual).write(toFile: path, atomically: true, encoding: .utf8)
        }
        return try String(contentsOfFile: path, encoding: .utf8)
    }
}

extension String {
    /// Runs `executable` with `arguments`, returning standard output, standard error and the exit status.
    static func runProcess(_ executable: String, _ arguments: [String], in directory: String? = nil) throws
        -> (output: String, error: String, status: Int32) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        // Read before waiting, so a full pipe cannot block the child.
        let outputData = output.fileHandleForReading.readDataToEndOfFile()
        let errorData = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (String(decoding: outputData, as: UTF8.self), String(decoding: errorData, as: UTF8.self), process.terminationStatus)
    }
}

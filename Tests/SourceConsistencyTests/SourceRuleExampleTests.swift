import DataModel
import Linting
import SourceConsistency
import Testing

/// One example of one rule, as a test argument.
struct RuleExampleCase: CustomTestStringConvertible, Sendable {
    let rule: any SourceRule.Type
    let example: SourceRuleExample
    let triggers: Bool

    var testDescription: String {
        "\(rule.description.id) \(triggers ? "triggering" : "non-triggering") example at line \(example.line)"
    }

    static let all: [RuleExampleCase] = SourceRuleCatalogue.all.flatMap { rule in
        rule.triggeringExamples.map { RuleExampleCase(rule: rule, example: $0, triggers: true) }
            + rule.nonTriggeringExamples.map { RuleExampleCase(rule: rule, example: $0, triggers: false) }
    }
}

/// Where a failure about `example` should point: the example itself.
func sourceLocation(of example: SourceRuleExample) -> Testing.SourceLocation {
    let fileName = example.file.split(separator: "/").last.map(String.init) ?? example.file
    return Testing.SourceLocation(fileID: "SourceConsistency/\(fileName)", filePath: example.file,
                                  line: example.line, column: 1)
}

/// Runs `rule` over a model snippet and a Swift snippet; the snippet's file is `Example.swift`.
func violations(of rule: any SourceRule.Type, model: String, source: String) throws -> [Violation] {
    let contents = SourceRuleExample(model: model, source: source).modelContents
    let model = try ModelLoader().model(fromContents: Array(contents.utf8), file: "Example.xcdatamodel/contents")
    let sources = SourceScan(files: [SwiftSourceFile(path: "Example.swift", text: source)])
    #expect(sources.problems.isEmpty, "the example's Swift must parse: \(sources.problems)")
    return rule.init().violations(in: ModelCodePairing(model: model, sources: sources))
}

struct Position: Hashable, Comparable, CustomStringConvertible {
    var line: Int
    var column: Int
    static func < (lhs: Position, rhs: Position) -> Bool { (lhs.line, lhs.column) < (rhs.line, rhs.column) }
    var description: String { "\(line):\(column)" }
}

@Suite("Source rule examples")
struct SourceRuleExampleTests {
    @Test("each example gives exactly the violations its markers show", arguments: RuleExampleCase.all)
    func exampleGivesItsMarkedViolations(_ testCase: RuleExampleCase) throws {
        let example = testCase.example
        let expected = Set(example.markedPositions.map { Position(line: $0.line, column: $0.column) })
        #expect(testCase.triggers != expected.isEmpty,
                "a triggering example needs a ↓ marker and a non-triggering one must have none",
                sourceLocation: sourceLocation(of: example))

        let found = try violations(of: testCase.rule, model: example.model, source: example.sourceWithoutMarkers)
        #expect(Set(found.map { Position(line: $0.location.line, column: $0.location.column) }) == expected,
                "\(found.map { "\($0.location.line):\($0.location.column) \($0.message)" })",
                sourceLocation: sourceLocation(of: example))
        for violation in found {
            #expect(violation.location.file == "Example.swift", sourceLocation: sourceLocation(of: example))
            #expect(violation.message == violation.message.lowercasedFirstWordAware,
                    "messages start in lowercase: \(violation.message)", sourceLocation: sourceLocation(of: example))
        }
    }

    @Test("an unrelated entity and class change nothing", arguments: RuleExampleCase.all)
    func unrelatedDeclarationsChangeNothing(_ testCase: RuleExampleCase) throws {
        let example = testCase.example
        let model = example.model + """

            <entity name="Unrelated" representedClassName="Unrelated">
                <attribute name="note" optional="YES" attributeType="String"/>
            </entity>
            """
        let source = "import CoreData\n\nfinal class Unrelated: NSManagedObject {\n    @NSManaged var note: String?\n}\n\n"
            + example.sourceWithoutMarkers
        let plain = try violations(of: testCase.rule, model: example.model, source: example.sourceWithoutMarkers)
        let padded = try violations(of: testCase.rule, model: model, source: source)
        #expect(padded.map(\.message) == plain.map(\.message), sourceLocation: sourceLocation(of: example))
        #expect(padded.map { $0.location.line - 6 } == plain.map(\.location.line),
                sourceLocation: sourceLocation(of: example))
    }

    @Test("re-indenting the sources moves the findings with them", arguments: RuleExampleCase.all)
    func reindentingMovesFindings(_ testCase: RuleExampleCase) throws {
        let example = testCase.example
        let indented = example.sourceWithoutMarkers.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.isEmpty ? "" : "\t  " + $0 }.joined(separator: "\n")
        let plain = try violations(of: testCase.rule, model: example.model, source: example.sourceWithoutMarkers)
        let moved = try violations(of: testCase.rule, model: example.model, source: indented)
        #expect(moved.map(\.message) == plain.map(\.message), sourceLocation: sourceLocation(of: example))
        #expect(moved.map { Position(line: $0.location.line, column: $0.location.column - 3) }
                    == plain.map { Position(line: $0.location.line, column: $0.location.column) },
                sourceLocation: sourceLocation(of: example))
    }

    @Test("every rule has examples of both kinds, and a unique id")
    func catalogueIsComplete() {
        for rule in SourceRuleCatalogue.all {
            let id = rule.description.id
            let triggeringCount = rule.triggeringExamples.count
            let nonTriggeringCount = rule.nonTriggeringExamples.count
            let foundName = SourceRuleCatalogue.rule(id: id).map { String(describing: $0) }
            let name = String(describing: rule)
            #expect(triggeringCount > 0, "\(id)")
            #expect(nonTriggeringCount > 0, "\(id)")
            #expect(foundName == name, "\(id)")
        }
        let ids = SourceRuleCatalogue.all.map { $0.description.id } + RuleCatalogue.all.map { $0.description.id }
        #expect(Set(ids).count == ids.count, "\(ids)")
    }
}

/// Severity means "fails", for the source rules as for the model rules.
@Suite("Source rule severities")
struct SourceRuleSeverityTests {
    @Test("every source rule's page says why its default severity is what it is")
    func everyRationaleStatesItsSeverity() {
        for rule in SourceRuleCatalogue.all {
            let description = rule.description
            #expect(description.rationale.contains("Default severity: \(description.defaultSeverity.rawValue)"),
                    "\(description.id)")
        }
    }

    @Test("a Use Scalar Type disagreement is a warning; a type of another kind or width stays an error")
    func scalarFormDisagreementIsAWarning() throws {
        let model = #"""
            <entity name="Item" representedClassName="Item">
                <attribute name="rating" attributeType="Integer 32" usesScalarValueType="NO"/>
                <attribute name="isDone" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="count" attributeType="Integer 16" usesScalarValueType="YES"/>
                <attribute name="price" attributeType="Double" usesScalarValueType="NO"/>
            </entity>
            """#
        let source = """
            import CoreData

            final class Item: NSManagedObject {
                @NSManaged var rating: Int32
                @NSManaged var isDone: NSNumber?
                @NSManaged var count: Int
                @NSManaged var price: Float
            }
            """
        let found = try violations(of: ScalarTypeMismatchRule.self, model: model, source: source)
        let severities = Dictionary(uniqueKeysWithValues: found.map { ($0.propertyName ?? "", $0.severity) })
        #expect(severities == ["rating": .warning, "isDone": .warning, "count": nil, "price": nil])
    }
}

extension String {
    /// The string with its first letter lowercased, unless that letter starts a quoted name.
    var lowercasedFirstWordAware: String {
        guard let first, first != "'" else { return self }
        return first.lowercased() + dropFirst()
    }
}

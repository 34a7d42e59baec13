import Configuring
import DataModel
import Foundation
import Linting
import Testing

/// Every real rule's triggering examples vanish when the rule is disabled in the
/// configuration, and when the entity a finding names carries `momlint:disable` for it: the
/// engine, not each rule, honours both, so every rule must.
@Suite struct CatalogueSuppressionTests {
    static let examples: [(id: String, text: String)] = RuleCatalogue.all.flatMap { rule in
        rule.description.triggeringExamples.filter { $0.document == .modelContents }.map { (rule.description.id, $0.text) }
    }

    private func model(_ snippet: String) throws -> Model {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" minimumToolsVersion="Automatic">
            \(snippet)
            </model>
            """
        return try ModelLoader().model(fromContents: Array(contents.utf8), file: "Example.xcdatamodel/contents")
    }

    /// The snippet with a `momlint:disable` entry for `ruleID` on the entity named `entity`.
    private func suppressing(_ ruleID: String, on entity: String, in snippet: String) throws -> String {
        let userInfo = "<userInfo><entry key=\"momlint:disable\" value=\"\(ruleID)\"/></userInfo>"
        let pattern = try NSRegularExpression(pattern: "<entity name=\"\(NSRegularExpression.escapedPattern(for: entity))\"[^>]*?(/?)>")
        let range = NSRange(snippet.startIndex..., in: snippet)
        guard let match = pattern.firstMatch(in: snippet, range: range), let tag = Range(match.range, in: snippet) else {
            return snippet
        }
        let selfClosing = Range(match.range(at: 1), in: snippet).map { !snippet[$0].isEmpty } ?? false
        let opening = selfClosing ? String(snippet[tag].dropLast(2)) + ">" : String(snippet[tag])
        return snippet.replacingCharacters(in: tag, with: opening + userInfo + (selfClosing ? "</entity>" : ""))
    }

    @Test func everyCatalogueRuleHasExamplesToCheck() {
        #expect(Set(Self.examples.map(\.id)).count >= RuleCatalogue.all.count / 2)
    }

    @Test(arguments: examples)
    func disablingTheRuleSilencesItsExample(id: String, text: String) throws {
        let model = try model(text)
        let rule = try #require(RuleCatalogue.rule(id: id))
        #expect(!LintEngine(rules: [rule]).lint(model).isEmpty, "the example of \(id) does not trigger")
        let configuration = try ConfigurationFile.parse("disabled_rules: [\(id)]", file: "c.yml", folder: "/").configuration
        #expect(try configuration.engine().lint(model).filter { $0.ruleID == id }.isEmpty)
    }

    @Test(arguments: examples)
    func momlintDisableOnTheEntitySilencesItsFindings(id: String, text: String) throws {
        let rule = try #require(RuleCatalogue.rule(id: id))
        let entities = Set(LintEngine(rules: [rule]).lint(try model(text)).compactMap(\.entityName))
        for entity in entities {
            let silenced = try model(suppressing(id, on: entity, in: text))
            let remaining = LintEngine(rules: [rule]).lint(silenced).filter { $0.entityName == entity }
            #expect(remaining.isEmpty, "\(id) still fires on '\(entity)' under momlint:disable: \(remaining.map(\.message))")
        }
    }
}

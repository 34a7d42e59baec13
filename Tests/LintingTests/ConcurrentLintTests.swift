import DataModel
import Linting
import Testing

/// On a large model the engine runs rules on several threads at once (`LintEngine.lint`); its
/// findings must be exactly those of the rules run one by one.
@Suite struct ConcurrentLintTests {
    /// 300 entities, each with problems for many rules at once: no inverse, an unknown
    /// destination, a reserved and an uppercase name, a repeated property, Deny against
    /// Cascade, an ordered CloudKit relationship, a required CloudKit attribute.
    static func troubledModel(entityCount: Int) -> String {
        var entities: [String] = []
        for index in 0..<entityCount {
            let next = "E\((index + 1) % entityCount)"
            entities.append("""
                <entity name="E\(index)">
                    <attribute name="description" optional="YES" attributeType="String"/>
                    <attribute name="Title" attributeType="String"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64" defaultValueString="many"/>
                    <attribute name="count" optional="YES" attributeType="Integer 64"/>
                    <relationship name="lonely" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="\(next)"/>
                    <relationship name="ghost" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere\(index)"/>
                    <relationship name="children" optional="YES" toMany="YES" ordered="YES" deletionRule="Cascade" destinationEntity="\(next)" inverseName="parent" inverseEntity="\(next)"/>
                    <relationship name="parent" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="E\((index + entityCount - 1) % entityCount)" inverseName="children" inverseEntity="E\((index + entityCount - 1) % entityCount)"/>
                </entity>
                """)
        }
        let members = (0..<entityCount).map { "<memberEntity name=\"E\($0)\"/>" }.joined(separator: "\n")
        return """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0" sourceLanguage="Swift">
            \(entities.joined(separator: "\n"))
            <configuration name="Cloud" usedWithCloudKit="YES">
            \(members)
            </configuration>
            </model>
            """
    }

    @Test func concurrentFindingsAreTheRulesFindingsOneByOne() throws {
        let count = LintEngine.concurrentEntityCount + 100
        let model = try ModelLoader().model(fromContents: Array(Self.troubledModel(entityCount: count).utf8), file: "big")
        let together = LintEngine().lint(model)
        let oneByOne = RuleCatalogue.all.flatMap { LintEngine(rules: [$0]).lint(model) }.sorted(by: Finding.reportOrder)
        #expect(together == oneByOne)
        // Enough rules fire for the comparison to mean something.
        #expect(Set(together.map(\.ruleID)).count >= 10)
        #expect(together.count > 5 * count)
        // And the same again: no run depends on which thread finished first.
        #expect(LintEngine().lint(model) == together)
    }
}

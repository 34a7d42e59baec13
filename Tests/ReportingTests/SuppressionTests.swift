import DataModel
import Linting
import Testing

/// `momlint:disable` userInfo entries silence rules on their element, in the engine, for every rule.
@Suite struct SuppressionTests {
    private func model(entityUserInfo: String = "", propertyUserInfo: String = "") throws -> Model {
        func userInfo(_ value: String) -> String {
            value.isEmpty ? "" : "<userInfo><entry key=\"momlint:disable\" value=\"\(value)\"/></userInfo>"
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" minimumToolsVersion="Automatic">
                <entity name="Book">
                    <attribute name="title" attributeType="String">\(userInfo(propertyUserInfo))</attribute>
                    <attribute name="subtitle" attributeType="String"/>
                    <relationship name="editor" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Book"/>
                    \(userInfo(entityUserInfo))
                </entity>
            </model>
            """
        return try ModelLoader().model(fromContents: Array(xml.utf8), file: "Book.xcdatamodel/contents")
    }

    private func findings(_ model: Model) -> [String] {
        LintEngine(rules: TestRules.all).lint(model).map { "\($0.ruleID) \($0.entityName ?? "-").\($0.propertyName ?? "-")" }
    }

    @Test func withoutSuppressionsEveryRuleFires() throws {
        #expect(findings(try model()) == [
            "test_model_level -.-", "test_attribute_limit Book.-", "test_required_string Book.title",
            "test_required_string Book.subtitle", "test_no_action Book.editor",
        ])
    }

    @Test func onAPropertyItSilencesThatPropertyOnly() throws {
        #expect(findings(try model(propertyUserInfo: "test_required_string")) == [
            "test_model_level -.-", "test_attribute_limit Book.-", "test_required_string Book.subtitle",
            "test_no_action Book.editor",
        ])
    }

    @Test func onAnEntityItSilencesTheEntityAndAllItsProperties() throws {
        #expect(findings(try model(entityUserInfo: " test_required_string , test_attribute_limit,test_no_action ")) == [
            "test_model_level -.-",
        ])
    }

    @Test func allSilencesEveryRuleButOthersAreUntouched() throws {
        #expect(findings(try model(propertyUserInfo: "all")) == [
            "test_model_level -.-", "test_attribute_limit Book.-", "test_required_string Book.subtitle",
            "test_no_action Book.editor",
        ])
        #expect(findings(try model(entityUserInfo: "some_other_rule")) == findings(try model()))
    }
}

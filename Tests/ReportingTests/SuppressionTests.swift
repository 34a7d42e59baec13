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

    /// Every kind of element that can carry `momlint:disable` is searched for unknown ids, in
    /// document order, each reported where its entry is; elements without userInfo between them
    /// are passed over (an entity is found by its own userInfo, a fetched property's, or an
    /// attribute's or relationship's, each from the model's trait tables).
    @Test func unknownRuleIDsAreFoundOnEveryKindOfElementInDocumentOrder() throws {
        func disable(_ value: String) -> String {
            "<userInfo><entry key=\"momlint:disable\" value=\"\(value)\"/></userInfo>"
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" minimumToolsVersion="Automatic">
                <entity name="Book">
                    <attribute name="plain" attributeType="String"/>
                    <attribute name="title" attributeType="String">\(disable("typo_one, missing_inverse"))</attribute>
                    <relationship name="editor" optional="YES" maxCount="1" deletionRule="No Action" destinationEntity="Book"/>
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf">\(disable("typo_two"))</relationship>
                    <fetchedProperty name="related" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Book"/>
                        \(disable("typo_three"))
                    </fetchedProperty>
                    \(disable("typo_four, all"))
                </entity>
                <entity name="Shelf">
                    <attribute name="label" attributeType="String"/>
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Book">\(disable("b_typo, a_typo"))</relationship>
                    <attribute name="code" attributeType="String">\(disable("typo_five"))</attribute>
                </entity>
                <entity name="Plain"><attribute name="x" attributeType="String"/></entity>
                <entity name="Note">
                    <attribute name="text" attributeType="String"/>
                    <fetchedProperty name="similar" optional="YES">
                        <fetchRequest name="fetchedPropertyFetchRequest" entity="Note"/>
                        \(disable("typo_six"))
                    </fetchedProperty>
                </entity>
                <entity name="Tag">\(disable("typo_seven"))</entity>
            </model>
            """
        let model = try ModelLoader().model(fromContents: Array(xml.utf8), file: "Book.xcdatamodel/contents")
        let unknown = Suppressions.unknownRuleIDs(in: model, knownRuleIDs: ["missing_inverse"])
        #expect(unknown.map { "\($0.ruleID) \($0.location.line)" } == [
            "typo_four 12", "typo_one 5", "typo_two 7", "typo_three 10", "typo_five 17", "a_typo 16", "b_typo 16",
            "typo_six 24", "typo_seven 27",
        ])
    }
}

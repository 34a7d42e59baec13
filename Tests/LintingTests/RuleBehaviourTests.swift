import DataModel
import Foundation
import Linting
import Testing

/// What the examples cannot say: message texts, bundles on disk, and the shape of big models.
@Suite("Rule behaviour")
struct RuleBehaviourTests {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func model(_ snippet: String, modelAttributes: String = "") throws -> Model {
        var text = ExampleHarness.contents(wrapping: snippet)
        if !modelAttributes.isEmpty {
            text = text.replacingOccurrences(of: "<model ", with: "<model \(modelAttributes) ")
        }
        return try ModelLoader().model(fromContents: Array(text.utf8), file: "Test.xcdatamodel/contents")
    }

    static func findings(_ id: String, in model: Model) throws -> [Finding] {
        LintEngine(rules: [try #require(RuleCatalogue.rule(id: id))]).lint(model)
    }

    @Test func cascadeIntoDenyNamesTheWholePath() throws {
        let example = try #require(RuleCatalogue.rule(id: "cascade_into_deny")?.description.triggeringExamples.first)
        let model = try Self.model(example.text)
        let messages = try Self.findings("cascade_into_deny", in: model).map(\.message)
        #expect(messages == [
            "deleting a 'Library' cascades through 'Library.shelves' → 'Shelf.books' to 'Book.loans', which uses Deny, "
                + "so the delete fails whenever 'Book.loans' is non-empty; make that relationship Nullify or Cascade, "
                + "or stop the cascade earlier",
            "deleting a 'Shelf' cascades through 'Shelf.books' to 'Book.loans', which uses Deny, so the delete fails "
                + "whenever 'Book.loans' is non-empty; make that relationship Nullify or Cascade, or stop the cascade earlier",
        ])
    }

    @Test func cascadeIntoDenyFollowsSubentityDestinationsAndInheritedRules() throws {
        let model = try Self.model("""
            <entity name="Drawer">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Item" inverseName="drawer" inverseEntity="Item"/>
            </entity>
            <entity name="Item" isAbstract="YES">
                <relationship name="drawer" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Drawer" inverseName="items" inverseEntity="Drawer"/>
            </entity>
            <entity name="Key" parentEntity="Item">
                <relationship name="locks" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Lock" inverseName="key" inverseEntity="Lock"/>
            </entity>
            <entity name="Lock">
                <relationship name="key" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Key" inverseName="locks" inverseEntity="Key"/>
            </entity>
            """)
        let messages = try Self.findings("cascade_into_deny", in: model).map(\.message)
        #expect(messages.count == 1)
        #expect(messages.first?.contains("'Drawer.items' to 'Key.locks'") == true)
    }

    @Test func ambiguousInverseIsNotAlsoReportedAsMismatch() throws {
        let example = try #require(RuleCatalogue.rule(id: "ambiguous_inverse")?.description.triggeringExamples.first)
        let findings = LintEngine().lint(try Self.model(example.text))
        #expect(findings.filter { $0.ruleID == "ambiguous_inverse" }.count == 1)
        #expect(findings.filter { $0.ruleID == "inverse_mismatch" }.isEmpty)
        let message = try #require(findings.first { $0.ruleID == "ambiguous_inverse" }?.message)
        #expect(message.hasPrefix("'Note.author' and 'Note.editor' both name 'User.notes' as their inverse"))
    }

    @Test func missingInverseSuggestsEnglishPlurals() throws {
        let model = try Self.model("""
            <entity name="Entry">
                <relationship name="journal" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Journal"/>
            </entity>
            <entity name="Box">
                <relationship name="journal" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Journal"/>
            </entity>
            <entity name="Person">
                <relationship name="journal" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Journal"/>
            </entity>
            <entity name="Day">
                <relationship name="journal" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Journal"/>
            </entity>
            <entity name="Journal"/>
            """)
        let suggestions = try Self.findings("missing_inverse", in: model).compactMap(\.suggestion)
        #expect(suggestions.map { $0.split(separator: "'")[1] } == ["entries", "boxes", "people", "days"])
    }

    @Test func missingInverseAsksForDistinctInversesAndCompletesOneSidedPairs() throws {
        let model = try Self.model("""
            <entity name="Note">
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                <relationship name="editor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
                <relationship name="reviewer" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User"/>
            </entity>
            <entity name="User">
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
            </entity>
            """)
        let messages = try Self.findings("missing_inverse", in: model).map(\.message)
        #expect(messages.count == 3)
        #expect(messages[0].contains("'Note.editor' has no inverse; add one on 'User' (e.g. 'notesAsEditor')"))
        #expect(messages[0].contains("'Note' has 3 relationships to 'User' ('author', 'editor', 'reviewer'), so give each a distinct inverse"))
        #expect(messages[2] == "'User.notes' has no inverse, but 'Note.author' names it as its inverse; set 'author' as the inverse of 'notes'")
    }

    @Test(arguments: [
        ("UInt8", "Integer 16"), ("UInt16", "Integer 32"), ("UInt32", "Integer 64"),
        ("Unsigned Integer 32", "Integer 64"), ("Integer 8", "Integer 16"), ("Int32", "Integer 32"),
        ("bool", "Boolean"), ("NSData", "Binary"),
    ])
    func unsupportedTypeNamesTheTypeHoldingTheWholeRange(typeName: String, replacement: String) throws {
        let model = try Self.model("<entity name=\"Sensor\"><attribute name=\"value\" optional=\"YES\" attributeType=\"\(typeName)\"/></entity>")
        let message = try #require(try Self.findings("unsupported_attribute_type", in: model).first?.message)
        #expect(message.hasPrefix("'Sensor.value' has type '\(typeName)', which Core Data does not have; use \(replacement) instead"))
    }

    @Test func uint64HasNoLosslessInteger() throws {
        let model = try Self.model("<entity name=\"Sensor\"><attribute name=\"serial\" optional=\"YES\" attributeType=\"UInt64\"/></entity>")
        let message = try #require(try Self.findings("unsupported_attribute_type", in: model).first?.message)
        #expect(message.hasSuffix("use Decimal or String instead, since no Core Data integer holds every UInt64"))
        #expect(!message.contains("Integer 64"))
    }

    @Test func cloudKitRulesCoverAModelMarkedUsedWithCloudKit() throws {
        let model = try Self.model("""
            <entity name="Note">
                <attribute name="title" attributeType="String"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Folder"/>
            </entity>
            <entity name="Folder"/>
            """, modelAttributes: "usedWithCloudKit=\"YES\"")
        let ids = Set(LintEngine().lint(model).map(\.ruleID))
        #expect(ids.isSuperset(of: ["cloudkit_required_attribute", "cloudkit_deny_rule", "cloudkit_missing_inverse"]))
        // The default configuration holds every entity, so nothing is outside it.
        #expect(!ids.contains("cloudkit_relationship_outside_configuration"))
    }

    @Test func cloudKitRulesCheckPropertiesInheritedFromUnsyncedParents() throws {
        let model = try Self.model("""
            <entity name="Base" isAbstract="YES">
                <attribute name="identifier" attributeType="UUID" usesScalarValueType="NO"/>
            </entity>
            <entity name="Note" parentEntity="Base"/>
            <configuration name="Cloud" usedWithCloudKit="YES">
                <memberEntity name="Note"/>
            </configuration>
            """)
        let findings = try Self.findings("cloudkit_required_attribute", in: model)
        #expect(findings.map(\.message) == [
            "CloudKit integration requires that all attributes be optional, or have a default value set: "
                + "'Base.identifier' is marked non-optional but does not have a default value; make it optional or give it a default",
        ])
    }

    @Test func invalidCurrentVersionIsReportedAtTheDeclaration() throws {
        let bundle = Self.repositoryRoot.appendingPathComponent("Fixtures/Models/Versioned/MissingCurrentVersion.xcdatamodeld").path
        let run = LintRun(paths: [bundle])
        #expect(run.loadFailures.isEmpty)
        let findings = run.findings.filter { $0.ruleID == "invalid_current_version" }
        #expect(findings.count == 1)
        let finding = try #require(findings.first)
        #expect(finding.severity == .error)
        #expect(finding.location.file.hasSuffix("MissingCurrentVersion.xcdatamodeld/.xccurrentversion"))
        #expect((finding.location.line, finding.location.column) == (6, 2))
        #expect(finding.message == ".xccurrentversion names 'Shop 3.xcdatamodel', which is not in "
            + "MissingCurrentVersion.xcdatamodeld (it holds 'Shop', 'Shop 2'); select an existing version as current")
    }

    @Test func engineIsDeterministicAndSorted() throws {
        let snippet = RuleCatalogue.all.flatMap { $0.description.triggeringExamples }
            .filter { $0.document == .modelContents }.prefix(8).map(\.text).joined(separator: "\n")
        let model = try Self.model(snippet)
        let first = LintEngine().lint(model)
        #expect(!first.isEmpty)
        #expect(first == LintEngine().lint(model))
        #expect(first == first.sorted(by: Finding.reportOrder))
    }

    // MARK: Size

    /// `count` entities in a chain: `E<i>.next` cascades to `E<i+1>`, whose to-many `previous` is
    /// the inverse, so each step climbs to a shared object.
    static func cascadeChain(count: Int, closed: Bool, denyAtEnd: Bool) -> String {
        var xml = ""
        for index in 0..<count {
            let next = index + 1 < count ? index + 1 : (closed ? 0 : nil)
            let previous = index > 0 ? index - 1 : (closed ? count - 1 : nil)
            xml += "<entity name=\"E\(index)\">\n"
            if let next {
                xml += "  <relationship name=\"next\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Cascade\" destinationEntity=\"E\(next)\" inverseName=\"previous\" inverseEntity=\"E\(next)\"/>\n"
            }
            if let previous {
                xml += "  <relationship name=\"previous\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Nullify\" destinationEntity=\"E\(previous)\" inverseName=\"next\" inverseEntity=\"E\(previous)\"/>\n"
            }
            if denyAtEnd && index == count - 1 {
                xml += "  <relationship name=\"locks\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Deny\" destinationEntity=\"Lock\" inverseName=\"owner\" inverseEntity=\"Lock\"/>\n"
            }
            xml += "</entity>\n"
        }
        if denyAtEnd {
            xml += "<entity name=\"Lock\"><relationship name=\"owner\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"E\(count - 1)\" inverseName=\"locks\" inverseEntity=\"E\(count - 1)\"/></entity>\n"
        }
        return xml
    }

    @Test func tenThousandEntityCascadeCycleIsOneFinding() throws {
        let model = try Self.model(Self.cascadeChain(count: 10_000, closed: true, denyAtEnd: false))
        let findings = try Self.findings("cascade_cycle", in: model)
        #expect(findings.count == 1)
        let message = try #require(findings.first?.message)
        #expect(message.hasPrefix("cascade rules form a cycle, 'E0.next' → 'E1.next' → "))
        #expect(message.contains("more) …"))
        #expect(message.count < 1_000)
    }

    @Test func tenThousandEntityCascadeChainIntoDenyIsLinear() throws {
        let count = 10_000
        let model = try Self.model(Self.cascadeChain(count: count, closed: false, denyAtEnd: true))
        let findings = try Self.findings("cascade_into_deny", in: model)
        #expect(findings.count == count - 1)
        let first = try #require(findings.first { $0.entityName == "E0" }?.message)
        #expect(first.hasPrefix("deleting an 'E0' cascades through 'E0.next' → 'E1.next' → "))
        #expect(first.contains("… (") && first.contains("'E9998.next' to 'E9999.locks'"))
        #expect(findings.allSatisfy { $0.message.count < 1_000 })
        // Every other rule copes with the same model too.
        #expect(LintEngine().lint(model).count >= count - 1)
    }
}

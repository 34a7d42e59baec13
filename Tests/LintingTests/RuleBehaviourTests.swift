import DataModel
import Foundation
@testable import Linting
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
        // Deleting the loans in the same save succeeds (`cascade.reaches-deny-satisfied`): the
        // message must not say the delete always fails while the relationship is non-empty.
        #expect(messages == [
            "deleting a 'Library' cascades through 'Library.shelves' → 'Shelf.books' to 'Book.loans', which uses Deny, "
                + "so the delete fails (1600) while 'Book.loans' holds objects not deleted in the same save; "
                + "make that relationship Nullify or Cascade, or stop the cascade earlier",
            "deleting a 'Shelf' cascades through 'Shelf.books' to 'Book.loans', which uses Deny, so the delete fails (1600) "
                + "while 'Book.loans' holds objects not deleted in the same save; make that relationship Nullify or Cascade, "
                + "or stop the cascade earlier",
        ])
    }

    /// The suite's `deny.destinations-deleted-in-same-save` deletes both sides of a Deny in one
    /// save successfully; the linter must tell the same story.
    @Test func mutualDenySaysDeletingBothSidesTogetherSucceeds() throws {
        let examples = try #require(RuleCatalogue.rule(id: "mutual_deny")?.description.triggeringExamples)
        let pair = try Self.findings("mutual_deny", in: try Self.model(examples[0].text)).map(\.message)
        #expect(pair == [
            "'Account.invoices' and its inverse 'Invoice.account' both use Deny, so deleting an 'Account' or an 'Invoice' "
                + "while they are linked fails (1600) unless both are deleted in the same save; use Nullify or Cascade on one side",
        ])
        let own = try Self.findings("mutual_deny", in: try Self.model(examples[1].text)).map(\.message)
        #expect(own == [
            "'Person.friends' is its own inverse and uses Deny, so deleting a linked 'Person' fails (1600) unless its "
                + "'friends' are deleted in the same save; use Nullify",
        ])
    }

    /// The fix offered must change something: an optional to-many inverse is already optional,
    /// so its minimum count is what to lower.
    @Test func nullifyRequiredInverseAdvisesWhatTheInverseLacks() throws {
        let examples = try #require(RuleCatalogue.rule(id: "nullify_required_inverse")?.description.triggeringExamples)
        let messages = try examples.prefix(3).map { example in
            try Self.findings("nullify_required_inverse", in: try Self.model(example.text)).map(\.message)
        }
        #expect(messages == [
            ["'Team.players' nullifies its inverse, but 'Player.team' is required, so deleting a 'Team' leaves its 'Player' "
                + "objects without one and the save fails (1570); use Cascade or Deny, or make 'Player.team' optional"],
            ["'Player.team' nullifies its inverse, but 'Team.players' needs at least 2, so deleting a 'Player' can leave a "
                + "'Team' below its minimum and the save fails (1580); use Cascade or Deny, or lower the minimum count of "
                + "'Team.players' to 1 (an emptied optional to-many passes)"],
            ["'Player.team' nullifies its inverse, but 'Team.players' needs at least 1, so deleting a 'Player' can leave a "
                + "'Team' below its minimum and the save fails (1580); use Cascade or Deny, or lower the minimum count of "
                + "'Team.players' to 0"],
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

    /// Severity means "fails": a default Core Data reads as some value is a warning, one that
    /// makes saves fail an error. Each case names what Core Data makes of the written string.
    @Test func defaultValueInvalidSplitsItsOutcomesBySeverity() throws {
        let examples = try #require(RuleCatalogue.rule(id: "default_value_invalid")?.description.triggeringExamples)
        let failing = try Self.findings("default_value_invalid", in: try Self.model(examples[0].text))
        #expect(failing.map(\.propertyName) == ["age", "rating", "token"])
        #expect(failing.allSatisfy { $0.severity == .error })
        let leftovers = try Self.findings("default_value_invalid", in: try Self.model(examples[1].text))
        #expect(leftovers.count == 7)
        #expect(leftovers.allSatisfy { $0.severity == .warning }, "\(leftovers.filter { $0.severity == .error })")
        let messages = Dictionary(uniqueKeysWithValues: leftovers.map { ($0.propertyName ?? "", $0.message) })
        #expect(messages["codec"]?.contains("has default 'YES', which is not a valid Integer 32 (read as 0)") == true)
        #expect(messages["isMuted"]?.contains("which is not a Boolean (YES or NO); Core Data reads it as NO") == true)
        #expect(messages["balance"]?.contains("(read as 0)") == true)
        #expect(messages["draftToken"]?.contains("which is not a UUID, so it starts as nil") == true)
        #expect(messages["level"]?.contains("so it is truncated") == true)
        #expect(failing.first { $0.propertyName == "token" }?.message.contains("fails to save (1570)") == true)
    }

    @Test(arguments: [
        ("100", true), ("0.0", false), ("maybe", false), ("  +007", true), ("-0", false), ("t", true), ("", false),
    ])
    func booleanDefaultsAreReadLikeNSStringBoolValue(text: String, reading: Bool) {
        #expect(LenientReading.boolean(text) == reading)
    }

    @Test(arguments: [
        ("YES", true, 0.0), ("12abc", true, 12), ("-3.7", true, -3), ("1.5e2x", false, 150), ("none", false, 0),
        (" 42", true, 42),
    ])
    func numericDefaultsAreReadAsTheirLeadingNumber(text: String, integral: Bool, reading: Double) {
        #expect(LenientReading.leadingNumber(text, integral: integral) == reading)
    }

    /// Messages read "deleting a 'User'", not "an 'User'" (wire's `User.personalInvitationsSent`).
    @Test(arguments: [
        ("User", "a 'User'"), ("Unit", "a 'Unit'"), ("Update", "an 'Update'"), ("Umbrella", "an 'Umbrella'"),
        ("Album", "an 'Album'"), ("OneTimeCode", "a 'OneTimeCode'"), ("Order", "an 'Order'"), ("Team", "a 'Team'"),
        // Letters and capitals read letter by letter (mutual_deny once said "a 'L' or a 'R'").
        ("L", "an 'L'"), ("R", "an 'R'"), ("B", "a 'B'"), ("U", "a 'U'"), ("NSItem", "an 'NSItem'"),
        ("URLRecord", "a 'URLRecord'"), ("HTMLPage", "an 'HTMLPage'"), ("CDItem", "a 'CDItem'"),
        ("Item", "an 'Item'"), ("IOSDevice", "an 'IOSDevice'"),
    ])
    func indefiniteArticleFollowsTheSound(name: String, phrase: String) {
        #expect(Naming.indefinite(name) == phrase)
    }

    /// A fetch index naming a to-many builds and loads (it is a warning); a uniqueness
    /// constraint naming one, or an index naming nothing, stays an error.
    @Test func constraintInvalidPropertyWarnsAboutToManyInFetchIndexes() throws {
        let examples = try #require(RuleCatalogue.rule(id: "constraint_invalid_property")?.description.triggeringExamples)
        let errors = try Self.findings("constraint_invalid_property", in: try Self.model(examples[0].text))
        #expect(errors.map(\.severity) == [.error, .error, .error])
        let index = try Self.findings("constraint_invalid_property", in: try Self.model(examples[1].text))
        #expect(index.map(\.severity) == [.warning])
        #expect(index.first?.message == "a fetch index 'byTitleAndItems' of 'Folder' names 'items', a to-many relationship, "
            + "which has no column in 'Folder''s table, so the index cannot use it; remove the element and index "
            + "'Item.folder' on its destination instead")
        let oneWay = try Self.findings("constraint_invalid_property", in: try Self.model("""
            <entity name="Folder">
                <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item"/>
                <fetchIndex name="byItems">
                    <fetchIndexElement property="items" type="Binary" order="ascending"/>
                </fetchIndex>
            </entity>
            <entity name="Item"/>
            """))
        #expect(oneWay.map(\.severity) == [.warning])
        #expect(oneWay.first?.message.hasSuffix("remove the element and give the relationship an inverse to-one and index "
            + "that on its destination instead") == true)
    }

    @Test func relationshipCountsFailOnlyWhenNoSaveCanPass() throws {
        let examples = try #require(RuleCatalogue.rule(id: "invalid_relationship_count")?.description.triggeringExamples)
        #expect(try Self.findings("invalid_relationship_count", in: try Self.model(examples[0].text)).map(\.severity)
            == [.error, .error])
        #expect(try Self.findings("invalid_relationship_count", in: try Self.model(examples[1].text)).map(\.severity)
            == [.warning, .warning])
    }

    /// Simplenote's `Note.deleted` builds and ships: a warning. `entity` breaks Core Data: an error.
    @Test func reservedNameSeverityFollowsTheConsequence() throws {
        let model = try Self.model("""
            <entity name="Note" representedClassName="Note" codeGenerationType="class">
                <attribute name="deleted" optional="YES" attributeType="Boolean" usesScalarValueType="YES"/>
                <attribute name="entity" optional="YES" attributeType="String"/>
            </entity>
            """)
        let findings = try Self.findings("reserved_name", in: model)
        #expect(findings.map(\.propertyName) == ["deleted", "entity"])
        #expect(findings.map(\.severity) == [.warning, .error])
    }

    /// A one-sided pair builds (as an ambiguous group does): a warning. An inverse naming no
    /// relationship: an error.
    @Test func inverseMismatchSeverityFollowsTheConsequence() throws {
        let model = try Self.model("""
            <entity name="Note">
                <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="missing" inverseEntity="Folder"/>
            </entity>
            <entity name="User">
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
            </entity>
            <entity name="Folder"/>
            """)
        let findings = try Self.findings("inverse_mismatch", in: model)
        #expect(findings.map(\.propertyName) == ["author", "folder"])
        #expect(findings.map(\.severity) == [.warning, .error])
    }

    /// A violation's own severity stands unless the configuration sets one for the rule, which
    /// then governs every finding of it.
    @Test func configuredSeverityGovernsPerFindingSeverities() throws {
        let examples = try #require(RuleCatalogue.rule(id: "default_value_invalid")?.description.triggeringExamples)
        let model = try Self.model(examples[0].text + examples[1].text.replacingOccurrences(of: "\"Account\"", with: "\"Profile\""))
        let rule = try #require(RuleCatalogue.rule(id: "default_value_invalid"))
        let mixed = LintEngine(rules: [rule]).lint(model)
        #expect(Set(mixed.map(\.severity)) == [.error, .warning])
        for severity in Severity.allCases {
            let configured = LintEngine(rules: [rule], severityOverrides: ["default_value_invalid": severity]).lint(model)
            #expect(configured.count == mixed.count)
            #expect(configured.allSatisfy { $0.severity == severity })
        }
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

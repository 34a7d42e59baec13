import DataModel
import Linting
import SourceConsistency
import SwiftDataModel
import Testing

/// `// momlint:disable rule_id` in Swift: wherever a comment can sit on a declaration's lines
/// before its name (above it, after any of its attributes or modifiers), at the end of the line
/// that declares it, and, for a class, anywhere in its header up to `{`.
@Suite struct SwiftDataSuppressionTests {
    private func findings(_ source: String, rule: String) throws -> [String] {
        let read = SwiftDataReader().read(files: [SwiftSourceFile(path: "Sources/App/File.swift", text: source)], name: "Sources/App")
        #expect(read.problems.isEmpty, "\(read.problems)")
        let model = try #require(read.model)
        return LintEngine().lint(model).filter { $0.ruleID == rule }.map { "\($0.entityName ?? "").\($0.propertyName ?? "")" }
    }

    /// Each property has no inverse (two relationships from List to Item); each is silenced by a
    /// comment in a different place, and the last, silenced nowhere, is the only one reported.
    @Test func aPropertyIsSilencedFromEveryPositionOnItsDeclaration() throws {
        #expect(try findings("""
            @Model class List {
                // momlint:disable missing_inverse
                @Relationship(deleteRule: .cascade)
                var above: [Item] = []
                @Relationship(deleteRule: .cascade)
                // momlint:disable missing_inverse
                var afterTheAttribute: [Item] = []
                @Attribute(originalName: "old") /* momlint:disable missing_inverse */ @Relationship
                var betweenAttributes: Item?
                @Relationship(deleteRule: .nullify)
                public
                // momlint:disable missing_inverse
                var afterTheModifier: Item?
                var atTheEndOfTheLine: Item? // momlint:disable missing_inverse
                var reported: Item?
            }
            @Model class Item { var name: String = "" }
            """, rule: "missing_inverse") == ["List.reported"])
    }

    @Test func aClassIsSilencedFromEveryPositionOnItsDeclaration() throws {
        #expect(try findings("""
            // momlint:disable entity_name_case
            @Model final class above { var name: String = "" }
            @Model
            // momlint:disable entity_name_case
            final class betweenModelAndClass { var name: String = "" }
            @Model final class atTheEndOfTheLine { // momlint:disable entity_name_case
                var name: String = ""
            }
            @available(iOS 17, *) @Model final /* momlint:disable entity_name_case */ class afterAModifier {}
            @Model final class reported { var name: String = "" }
            """, rule: "entity_name_case") == ["reported."])
    }

    /// A comment belongs to one declaration: a trailing comment does not silence the next
    /// property, a comment inside a class's members does not silence the class, and a comment on
    /// a later line of a property's initializer or accessors belongs to that code.
    @Test func aCommentSilencesOnlyItsOwnDeclaration() throws {
        #expect(try findings("""
            @Model class List {
                var first: Item? // momlint:disable missing_inverse
                var second: Item?
                var third: Item? {
                    // momlint:disable missing_inverse
                    didSet { print("changed") }
                }
            }
            @Model class Item { var name: String = "" }
            """, rule: "missing_inverse") == ["List.second", "List.third"])
        #expect(try findings("""
            @Model final class reported {
                // momlint:disable entity_name_case
                var name: String = ""
            }
            """, rule: "entity_name_case") == ["reported."])
    }
}

import DataModel
import Foundation
import Linting
import SourceConsistency
import SwiftDataModel
import Testing

/// What each rule page says about SwiftData is what runs: every rule said to apply fires on a
/// SwiftData source (with its message in SwiftData's terms, pinned here), no rule said not to
/// apply would find anything in these sources, and `LintEngine` does not run those rules on a
/// SwiftData model at all.
@Suite struct SwiftDataApplicabilityTests {
    /// A SwiftData source on which a rule fires, and that rule's findings there.
    struct Trigger: CustomTestStringConvertible, Sendable {
        var ruleID: String
        var cloudKit: Bool
        var source: String
        var messages: [String]
        var suggestions: [String?]

        init(_ ruleID: String, cloudKit: Bool, _ source: String, messages: [String], suggestions: [String?]) {
            self.ruleID = ruleID
            self.cloudKit = cloudKit
            self.source = source
            self.messages = messages
            self.suggestions = suggestions
        }

        var testDescription: String { ruleID }

        func model() throws -> Model {
            let read = SwiftDataReader(usesCloudKit: cloudKit).read(
                files: [SwiftSourceFile(path: "Sources/App/\(ruleID).swift", text: source)], name: "Sources/App")
            #expect(read.problems.isEmpty, "\(read.problems)")
            return try #require(read.model)
        }
    }

    static let triggers: [Trigger] = [
        Trigger("ambiguous_inverse", cloudKit: false, #"""
            @Model class Note {
                @Relationship(inverse: \User.notes) var author: User?
                @Relationship(inverse: \User.notes) var editor: User?
            }
            @Model class User { var notes: [Note] = [] }
            """#, messages: [
                "'Note.author' and 'Note.editor' both name 'User.notes' as their inverse; a relationship has one inverse, so give each its own on 'User' (e.g. 'notesAsAuthor' and 'notesAsEditor')",
            ], suggestions: [
                "add one relationship on 'User' per claimer and pair each with its claimer",
            ]),
        Trigger("cascade_cycle", cloudKit: false, #"""
            @Model class Folder {
                @Relationship(deleteRule: .cascade, inverse: \Doc.folder) var docs: [Doc] = []
            }
            @Model class Doc { @Relationship(deleteRule: .cascade) var folder: Folder? }
            """#, messages: [
                "cascade rules form a cycle, 'Doc.folder' → 'Folder.docs' → 'Doc.folder', through a shared object; deleting any 'Doc' or 'Folder' object deletes everything connected through them; set 'Doc.folder', which climbs to the shared object, to .nullify",
            ], suggestions: [
                nil,
            ]),
        Trigger("cascade_into_deny", cloudKit: false, #"""
            @Model class Trip {
                @Relationship(deleteRule: .cascade, inverse: \Stop.trip) var stops: [Stop] = []
            }
            @Model class Stop {
                var trip: Trip?
                @Relationship(deleteRule: .deny, inverse: \Ticket.stop) var tickets: [Ticket] = []
            }
            @Model class Ticket { var stop: Stop? }
            """#, messages: [
                "deleting a 'Trip' cascades through 'Trip.stops' to 'Stop.tickets', which uses .deny, so the delete fails (1600) while 'Stop.tickets' holds objects not deleted in the same save; make that relationship .nullify or .cascade, or stop the cascade earlier",
            ], suggestions: [
                nil,
            ]),
        Trigger("cascade_to_shared", cloudKit: false, #"""
            @Model class Post {
                @Relationship(deleteRule: .cascade, inverse: \Tag.posts) var tags: [Tag] = []
            }
            @Model class Tag { var posts: [Post] = [] }
            """#, messages: [
                "'Post.tags' and 'Tag.posts' are many-to-many, so deleting one 'Post' deletes every 'Tag' it has, though other 'Post' objects still hold them; use .nullify here and keep .cascade on the owning side",
            ], suggestions: [
                "set deleteRule: .nullify on 'Post.tags'",
            ]),
        Trigger("cloudkit_deny_rule", cloudKit: true, #"""
            @Model class Folder {
                @Relationship(deleteRule: .deny, inverse: \Doc.folder) var documents: [Doc]? = []
            }
            @Model class Doc { var folder: Folder? }
            """#, messages: [
                "CloudKit integration does not support the delete rule .deny: 'Folder.documents' uses it; use .nullify or .cascade",
            ], suggestions: [
                "set deleteRule: .nullify on 'Folder.documents'",
            ]),
        Trigger("cloudkit_missing_inverse", cloudKit: true, #"""
            @Model class Budget { var expenses: [Expense]? = [] }
            @Model class Expense { var amount: Double = 0 }
            """#, messages: [
                "CloudKit integration requires that all relationships have an inverse: 'Budget.expenses' does not; add one on 'Expense'",
            ], suggestions: [
                nil,
            ]),
        Trigger("cloudkit_required_attribute", cloudKit: true, #"""
            @Model class Item {
                var name: String
                init(name: String) { self.name = name }
            }
            """#, messages: [
                "CloudKit integration requires that all attributes be optional, or have a default value set: 'Item.name' is neither optional nor given an initial value; make it optional ('String?') or give it an initial value",
            ], suggestions: [
                nil,
            ]),
        Trigger("cloudkit_required_relationship", cloudKit: true, #"""
            @Model class Owner { var pets: [Pet]? = [] }
            @Model class Pet {
                var owner: Owner
                init(owner: Owner) { self.owner = owner }
            }
            """#, messages: [
                "CloudKit integration requires that all relationships be optional: 'Pet.owner' is not; make it optional",
            ], suggestions: [
                nil,
            ]),
        Trigger("cloudkit_unique_constraint", cloudKit: true, #"""
            @Model class Voucher { @Attribute(.unique) var code: String = "" }
            """#, messages: [
                "CloudKit integration does not support unique constraints: 'Voucher' is constrained on 'code'; remove the .unique option or #Unique macro and deduplicate in code",
            ], suggestions: [
                nil,
            ]),
        Trigger("constraint_invalid_property", cloudKit: false, #"""
            @Model class Item {
                #Unique<Item>([\.missing])
                #Index<Item>([\.parts])
                var name: String = ""
                var parts: [Part] = []
            }
            @Model class Part { var item: Item? }
            """#, messages: [
                "#Unique<Item> names 'missing', which is not a property of 'Item'; name a stored property or to-one relationship",
                "#Index<Item> names 'parts', a to-many relationship, which has no column in 'Item''s table, so the index cannot use it; remove the key path and index 'Part.item' on its destination instead",
            ], suggestions: [
                nil,
                nil,
            ]),
        Trigger("default_value_invalid", cloudKit: false, #"""
            @Model class Item { var small: Int16 = 40000 }
            """#, messages: [
                "'Item.small' has initial value 40000, outside Int16's range -32768...32767, so it does not compile (the integer literal overflows); write a value Int16 can hold",
            ], suggestions: [
                nil,
            ]),
        Trigger("duplicate_property", cloudKit: false, #"""
            @Model class Animal { var name: String = "" }
            @Model class Dog: Animal { var name: String = "" }
            """#, messages: [
                "'Dog.name' redeclares 'Animal.name', which 'Dog' already inherits; Core Data cannot override properties, so remove it from 'Dog' or rename it",
            ], suggestions: [
                nil,
            ]),
        Trigger("entity_name_case", cloudKit: false, #"""
            @Model class item { var name: String = "" }
            """#, messages: [
                "model class 'item' should start with an uppercase letter; rename it (e.g. 'Item')",
            ], suggestions: [
                "rename 'item' to 'Item'",
            ]),
        Trigger("external_storage_on_non_binary", cloudKit: false, #"""
            @Model class Item { @Attribute(.externalStorage) var title: String = "" }
            """#, messages: [
                "'Item.title' allows external storage but is String, not Data; remove @Attribute(.externalStorage), or make it Data if it holds large data",
            ], suggestions: [
                "remove @Attribute(.externalStorage) from 'Item.title'",
            ]),
        Trigger("invalid_relationship_count", cloudKit: false, #"""
            @Model class Item {
                @Relationship(minimumModelCount: 5, maximumModelCount: 2) var parts: [Part] = []
                @Relationship(minimumModelCount: 1, maximumModelCount: 3) var cover: Part?
            }
            @Model class Part { var item: Item? }
            """#, messages: [
                "'Item.parts' has minimumModelCount 5 above maximumModelCount 2, so no non-empty value is valid; make minimumModelCount at most maximumModelCount (0 means no maximum)",
                "'Item.cover' is to-one but has minimumModelCount 1 and maximumModelCount 3; a to-one holds at most one object; remove minimumModelCount and maximumModelCount, or make it an array",
            ], suggestions: [
                nil,
                nil,
            ]),
        Trigger("inverse_mismatch", cloudKit: false, #"""
            @Model class Pet { @Relationship(inverse: \Owner.name) var owner: Owner? }
            @Model class Owner { var name: String = "" }
            """#, messages: [
                "'Pet.owner' names 'Owner.name' as its inverse, but 'Owner' has an attribute, not a relationship, named 'name'; choose a relationship of 'Owner' that points back",
            ], suggestions: [
                nil,
            ]),
        Trigger("missing_inverse", cloudKit: false, #"""
            @Model class Budget { var expenses: [Expense] = [] }
            @Model class Expense { var amount: Double = 0 }
            @Model class Palette {
                var owner: Palette?
                var kids: [Palette] = []
            }
            """#, messages: [
                "'Budget.expenses' has no inverse; add one on 'Expense' (e.g. 'budgets')",
                "'Palette.owner' has no inverse; 'Palette' has one to-one and one to-many relationship to itself ('owner', 'kids'), the two ends of a parent/child link, so make them each other's inverse",
                "'Palette.kids' has no inverse; 'Palette' has one to-one and one to-many relationship to itself ('kids', 'owner'), the two ends of a parent/child link, so make them each other's inverse",
            ], suggestions: [
                "add a relationship 'budgets' to 'Expense' and write @Relationship(inverse: \\Expense.budgets) on 'Budget.expenses'",
                "write @Relationship(inverse: \\Palette.owner) on 'Palette.kids'",
                "write @Relationship(inverse: \\Palette.kids) on 'Palette.owner'",
            ]),
        Trigger("mutual_deny", cloudKit: false, #"""
            @Model class Shelf {
                @Relationship(deleteRule: .deny, inverse: \Book.shelf) var books: [Book] = []
            }
            @Model class Book { @Relationship(deleteRule: .deny) var shelf: Shelf? }
            """#, messages: [
                "'Book.shelf' and its inverse 'Shelf.books' both use .deny, so deleting a 'Book' or a 'Shelf' while they are linked fails (1600) unless both are deleted in the same save; use .nullify or .cascade on one side",
            ], suggestions: [
                nil,
            ]),
        Trigger("no_action_delete_rule", cloudKit: false, #"""
            @Model class Checklist {
                @Relationship(deleteRule: .noAction, inverse: \Entry.list) var entries: [Entry] = []
            }
            @Model class Entry { var list: Checklist? }
            """#, messages: [
                "'Checklist.entries' uses .noAction, so deleting a 'Checklist' leaves 'Entry.list' pointing at the deleted object; use .nullify, .cascade or .deny",
            ], suggestions: [
                "set deleteRule: .nullify on 'Checklist.entries'",
            ]),
        Trigger("nullify_required_inverse", cloudKit: false, #"""
            @Model class Owner { var pets: [Pet] = [] }
            @Model class Pet {
                var owner: Owner
                init(owner: Owner) { self.owner = owner }
            }
            """#, messages: [
                "'Owner.pets' nullifies its inverse, but 'Pet.owner' is required, so deleting an 'Owner' leaves its 'Pet' objects without one and the save fails (1570); use .cascade or .deny, or make 'Pet.owner' optional",
            ], suggestions: [
                nil,
            ]),
        Trigger("property_name_case", cloudKit: false, #"""
            @Model class Item { var Name: String = "" }
            """#, messages: [
                "property 'Item.Name' should start with a lowercase letter; rename it (e.g. 'name')",
            ], suggestions: [
                "rename 'Name' to 'name'",
            ]),
        Trigger("reserved_name", cloudKit: false, #"""
            @Model class Note { var description: String = "" }
            """#, messages: [
                "'Note.description' clashes with NSObject's 'description', which Core Data relies on; rename it (e.g. 'noteDescription')",
            ], suggestions: [
                nil,
            ]),
        Trigger("too_many_properties", cloudKit: false, "@Model class Wide {\n" + (0...100).map { "    var p\($0): Int = 0\n" }.joined() + "}", messages: [
                "'Wide' has 101 properties, more than 100; split it into related models",
            ], suggestions: [
                nil,
            ]),
        Trigger("transformable_without_transformer", cloudKit: false, #"""
            @Model class Note {
                @Attribute(.transformable(by: "NSKeyedUnarchiveFromData")) var style: [String]?
            }
            """#, messages: [
                "'Note.style' uses the insecure transformer 'NSKeyedUnarchiveFromData'; write .transformable(by: NSSecureUnarchiveFromDataTransformer.self) or a subclass of it, or drop .transformable and let SwiftData encode a Codable value",
            ], suggestions: [
                "write .transformable(by: NSSecureUnarchiveFromDataTransformer.self) or a subclass of it, or drop .transformable and let SwiftData encode a Codable value",
            ]),
        Trigger("unknown_destination", cloudKit: false, #"""
            @Model class Pet { @Relationship var owner: Ghost? }
            """#, messages: [
                "'Pet.owner' is typed 'Ghost', which is not a @Model class of these sources; make that type a @Model class of the schema, or pass the folder that declares it",
            ], suggestions: [
                nil,
            ]),
        Trigger("unsigned_integer_attribute", cloudKit: false, #"""
            @Model class Server { var port: UInt16 = 0 }
            """#, messages: [
                "'Server.port' is 'UInt16', but Core Data stores only signed integers and SwiftData does not document how it keeps an unsigned value (up to 65535); declare it 'Int32', which holds every UInt16",
            ], suggestions: [
                "declare 'Server.port' as 'Int32'",
            ]),
    ]

    @Test func everyRuleSaidToApplyHasATrigger() {
        let applying = Set(RuleCatalogue.all.filter { $0.description.swiftData.applies }.map { $0.description.id })
        // The rules over versioned schemas fire on their own Swift examples, which
        // SwiftDataVersionExampleTests runs.
        let overVersions = Set(RuleCatalogue.all.filter { rule in
            rule.init().asSchemaVersionsRule != nil
                && rule.description.triggeringExamples.contains { $0.document == .swiftDataVersions }
        }.map { $0.description.id })
        #expect(overVersions.count == 6)
        #expect(Set(Self.triggers.map(\.ruleID)).isDisjoint(with: overVersions))
        #expect(Set(Self.triggers.map(\.ruleID)).union(overVersions) == applying)
    }

    /// Each rule said to apply fires on its trigger, with the message and suggestion in
    /// SwiftData's terms.
    @Test(arguments: triggers)
    func aRuleSaidToApplyFiresInSwiftDataTerms(_ trigger: Trigger) throws {
        let findings = LintEngine().lint(try trigger.model()).filter { $0.ruleID == trigger.ruleID }
        #expect(findings.map(\.message) == trigger.messages)
        #expect(findings.map(\.suggestion) == trigger.suggestions)
    }

    /// Words of Xcode's model editor and the `contents` XML that a SwiftData author never writes:
    /// delete rules by their editor names, the editor's settings, XML attribute names.
    static let coreDataTerms = [
        "Nullify", "Cascade", "Deny", "No Action", "entity", "entities", "Binary", "minCount", "maxCount",
        "attributeType", "default value", "turn external storage off", "Integer 16", "Integer 32", "Integer 64",
        "Transformable", "userInfo", "fetch index", "uniqueness constraint", "set its transformer", "read as",
        "truncated", "Renaming ID", "set the destination", "set both to the same",
    ]

    @Test func noFindingOnASwiftDataModelSpeaksXcodeTerms() throws {
        for trigger in Self.triggers {
            for finding in LintEngine().lint(try trigger.model()) {
                // CloudKit's own error text ("have a default value set") is quoted as Core Data logs it.
                let text = finding.message.replacingOccurrences(of: "or have a default value set", with: "")
                    + " " + (finding.suggestion ?? "")
                for term in Self.coreDataTerms {
                    #expect(!text.contains(term), "\(finding.ruleID) says '\(term)': \(finding.message)")
                }
            }
        }
    }

    /// The rules said not to apply, run directly (not through the engine, which skips them) on
    /// every trigger and on the fixture apps: none finds anything, so the engine hides nothing.
    @Test func noRuleSaidNotToApplyWouldFindAnythingInSwiftDataSources() throws {
        var models = try Self.triggers.map { try $0.model() }
        for app in ["App", "CleanApp"] {
            let folder = SwiftDataFixtureTests.root.appendingPathComponent(app).path
            models += SwiftDataReader(usesCloudKit: true).read(paths: [folder]).models
        }
        #expect(models.count == Self.triggers.count + 2)
        let notApplying = RuleCatalogue.all.filter { !$0.description.swiftData.applies }
        #expect(notApplying.map { $0.description.id }.contains("abstract_without_subentities"))
        for model in models {
            let linted = LintedModel(model)
            for rule in notApplying {
                #expect(rule.init().violations(in: linted).isEmpty, "\(rule.description.id) on \(model.entities.map(\.name))")
            }
        }
    }

    /// The mechanism itself: the same model gives a finding of a rule that does not apply to
    /// SwiftData when it comes from a `contents` file, and none when it comes from Swift.
    @Test func theEngineDoesNotRunARuleSaidNotToApplyOnASwiftDataModel() {
        let entities = [Entity(name: "Shape", isAbstract: true, location: SourceLocation(file: "Shape.swift", line: 1, column: 14))]
        let fromXcode = Model(file: "contents", entities: entities)
        let fromSwift = Model(file: "Sources/App", entities: entities, origin: .swiftData)
        #expect(LintEngine().lint(fromXcode).map(\.ruleID) == ["abstract_without_subentities"])
        #expect(LintEngine().lint(fromSwift).isEmpty)
        #expect(!AbstractWithoutSubentitiesRule.description.swiftData.applies)
    }
}

import DataModel
@testable import ModelDiff
import Testing
import MomlintTestSupport

/// How the diff pairs an older property with a newer one (renaming ID, then name, of the same
/// kind, each older property once), and where it reports what an entity inherited and lost.
@Suite struct PropertyMatchingTests {
    func model(_ body: String, version: String) throws -> Model {
        try ModelLoader().model(fromContents: Array(Fixtures.contents(body).utf8), file: "/m/\(version)/contents")
    }

    func diff(_ older: String, _ newer: String) throws -> [String] {
        SchemaDiff(from: try model(older, version: "V1"), to: try model(newer, version: "V2")).changes.map(\.details)
    }

    func attribute(_ name: String, renamingID: String? = nil) -> String {
        "<attribute name=\"\(name)\" optional=\"YES\" attributeType=\"String\"\(renamingID.map { " elementID=\"\($0)\"" } ?? "")/>"
    }

    /// Every newer attribute names an older one by renaming ID: each is a rename of its own
    /// older attribute, however many candidates the entity holds.
    @Test func manyRenamesInOneEntityEachFindTheirOlderProperty() throws {
        let count = 400
        let older = "<entity name=\"E\">" + (0..<count).map { attribute("p\($0)") }.joined() + "</entity>"
        let newer = "<entity name=\"E\">" + (0..<count).reversed().map { attribute("q\($0)", renamingID: "p\($0)") }.joined()
            + "</entity>"
        #expect(try diff(older, newer) == (0..<count).reversed().map { "attribute 'E.p\($0)' renamed to 'q\($0)'" })
    }

    /// Two attributes that swap names by renaming ID are two renames, not two changes in place.
    @Test func attributesSwappingNamesAreTwoRenames() throws {
        let older = "<entity name=\"E\">" + attribute("a") + attribute("b") + "</entity>"
        let newer = "<entity name=\"E\">" + attribute("a", renamingID: "b") + attribute("b", renamingID: "a") + "</entity>"
        #expect(try diff(older, newer) == ["attribute 'E.b' renamed to 'a'", "attribute 'E.a' renamed to 'b'"])
    }

    /// An older renaming ID is the older property's canonical name: a newer property naming it
    /// continues that property, and the older property of that plain name still matches its namesake.
    @Test func anOlderRenamingIDIsTheCanonicalName() throws {
        let older = "<entity name=\"E\">" + attribute("title", renamingID: "heading") + attribute("heading") + "</entity>"
        let newer = "<entity name=\"E\">" + attribute("caption", renamingID: "heading") + attribute("heading") + "</entity>"
        #expect(try diff(older, newer) == ["attribute 'E.title' renamed to 'caption'"])
    }

    /// A relationship never continues an attribute of its name.
    @Test func aPropertyOfAnotherKindIsNoMatch() throws {
        let older = "<entity name=\"P\"/><entity name=\"E\">" + attribute("owner") + "</entity>"
        let newer = "<entity name=\"P\"/><entity name=\"E\">"
            + "<relationship name=\"owner\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"P\"/></entity>"
        #expect(try diff(older, newer) == [
            "relationship 'E.owner' added", "attribute 'E.owner' removed with its values",
        ])
    }

    /// An attribute a parent loses is reported once, at the parent, whichever comes first in the
    /// document and however deep the hierarchy below it.
    @Test(arguments: [false, true])
    func anInheritedRemovalIsReportedOnceAtTheParent(childrenFirst: Bool) throws {
        func entities(_ baseAttributes: String) -> String {
            let base = "<entity name=\"Base\" isAbstract=\"YES\">" + baseAttributes + "</entity>"
            let children = "<entity name=\"Child\" parentEntity=\"Base\">" + attribute("c") + "</entity>"
                + "<entity name=\"Grandchild\" parentEntity=\"Child\">" + attribute("g") + "</entity>"
            return childrenFirst ? children + base : base + children
        }
        let changes = try diff(entities(attribute("x") + attribute("y")), entities(attribute("y")))
        #expect(changes == ["attribute 'Base.x' removed with its values"])
    }

    /// An attribute renamed at the parent is the same attribute in every child's row.
    @Test func aRenameAtTheParentIsNoChangeForItsChildren() throws {
        let child = "<entity name=\"Child\" parentEntity=\"Base\">" + attribute("c") + "</entity>"
        let older = child + "<entity name=\"Base\">" + attribute("x") + "</entity>"
        let newer = child + "<entity name=\"Base\">" + attribute("z", renamingID: "x") + "</entity>"
        #expect(try diff(older, newer) == ["attribute 'Base.x' renamed to 'z'"])
    }
}

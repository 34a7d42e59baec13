import DataModel
import Foundation
@testable import Linting
import Testing

/// `duplicate_property` and `too_many_properties` once walked every entity's ancestors: quadratic
/// in the depth of a hierarchy (a 20,000-deep chain took 14.7 s, 100,000 deep 396 s). What an
/// entity inherits is now summed once down each hierarchy (`InheritedProperties`). Linearity is
/// proved by counting the table's steps, never by timing.
@Suite struct InheritanceDepthTests {
    /// Entities `E0` … `E(depth-1)`, each the parent of the next, each declaring `p<i>`; the
    /// entities in `sharedAt` also declare `shared`.
    static func chain(depth: Int, sharedAt: Set<Int>) -> String {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"?>\n"
            + "<model type=\"com.apple.IDECoreDataModeler.DataModel\" documentVersion=\"1.0\">\n"
        for index in 0..<depth {
            let parent = index == 0 ? "" : " parentEntity=\"E\(index - 1)\""
            xml += "<entity name=\"E\(index)\" representedClassName=\"E\(index)\"\(parent) syncable=\"YES\">"
            xml += "<attribute name=\"p\(index)\" optional=\"YES\" attributeType=\"String\"/>"
            if sharedAt.contains(index) { xml += "<attribute name=\"shared\" optional=\"YES\" attributeType=\"String\"/>" }
            xml += "</entity>\n"
        }
        return xml + "</model>\n"
    }

    static func model(_ xml: String) throws -> Model {
        try ModelLoader().model(fromContents: Array(xml.utf8), file: "chain")
    }

    @Test func aChain20000DeepIsLintedInLinearWork() throws {
        let depth = 20_000
        let model = try Self.model(Self.chain(depth: depth, sharedAt: [0, 10_000, depth - 1]))
        let linted = LintedModel(model)
        let table = linted.inheritedProperties
        let properties = depth + 3
        // Each entity and each property a constant number of times: enter, look up, push, pop.
        #expect(table.steps <= 3 * properties + depth, "\(table.steps) steps for \(properties) properties")
        #expect(table.inheritedCounts[depth - 1] == depth - 1 + 2)

        let duplicates = DuplicatePropertyRule().violations(in: linted)
        #expect(duplicates.map(\.entityName) == ["E10000", "E\(depth - 1)"])
        #expect(duplicates.last?.message.hasPrefix("'E\(depth - 1).shared' redeclares 'E10000.shared'") == true)

        let wide = TooManyPropertiesRule().violations(in: linted)
        // E99 is the first with 101 properties: p0 … p98 and E0's `shared` inherited, p99 its own.
        #expect(wide.count == depth - 99)
        #expect(wide.first?.entityName == "E99")
        // The last inherits p0 … p19998 and two `shared`, and declares p19999 and `shared`.
        #expect(wide.last?.message == "'E\(depth - 1)' has \(depth + 3) properties (\(depth + 1) inherited), "
                    + "more than 100; split it into related entities")
    }

    /// The table agrees with a walk of each entity's ancestors (`Model.ancestorIndexes`) on trees,
    /// cycles, unknown parents and entities sharing a name.
    @Test(arguments: [
        ["A:x,y", "B<A:y,z", "C<B:x", "D<A:z", "E<D:y,y"],
        ["A<B:x", "B<C:y", "C<A:x", "D<A:x,y"],
        ["A<Nowhere:x", "B<A:x"],
        ["A:x", "B<A:y", "B<B:x", "C<B:x,y"],
        ["A<A:x", "B<A:x"],
    ])
    func tableMatchesTheAncestorWalk(entities: [String]) throws {
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<model>\n"
        for spec in entities {
            let (head, names) = (spec.split(separator: ":")[0], spec.split(separator: ":")[1].split(separator: ","))
            let parts = head.split(separator: "<")
            let parent = parts.count > 1 ? " parentEntity=\"\(parts[1])\"" : ""
            xml += "<entity name=\"\(parts[0])\"\(parent)>"
                + names.map { "<attribute name=\"\($0)\" attributeType=\"String\"/>" }.joined() + "</entity>\n"
        }
        let model = try Self.model(xml + "</model>\n")
        let table = InheritedProperties(model: model)
        for entityIndex in model.entities.indices {
            let ancestors = model.ancestorIndexes(ofEntityAt: entityIndex)
            #expect(table.inheritedCounts[entityIndex]
                        == ancestors.reduce(0) { $0 + model.ownPropertyNames(ofEntityAt: $1).count }, "\(entityIndex)")
            for (offset, name) in model.ownPropertyNames(ofEntityAt: entityIndex).enumerated() {
                let nearest = ancestors.first { model.ownPropertyNames(ofEntityAt: $0).contains(name) }
                #expect(table.nearestDeclarer(ofOwnPropertyAt: offset, inEntityAt: entityIndex) == nearest,
                        "entity \(entityIndex), \(name)")
            }
        }
    }

    @Test func limitOptionSetsTheCount() throws {
        let linted = LintedModel(try Self.model(Self.chain(depth: 6, sharedAt: [])))
        let rule = try TooManyPropertiesRule(options: RuleOptions(["limit": "4"]))
        #expect(rule.violations(in: linted).map(\.entityName) == ["E4", "E5"])
        #expect(rule.violations(in: linted).first?.message == "'E4' has 5 properties (4 inherited), more than 4; "
                    + "split it into related entities")
        #expect(throws: RuleOptionError(option: "limit", problem: "expects a whole number, not 'many'")) {
            try TooManyPropertiesRule(options: RuleOptions(["limit": "many"]))
        }
        #expect(TooManyPropertiesRule.options.map(\.name) == ["limit"])
    }
}

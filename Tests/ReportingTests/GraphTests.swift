import DataModel
import Foundation
import Linting
@testable import Reporting
import Testing

/// `momlint graph`: the diagram's content, and a DOT picture Graphviz actually draws.
@Suite struct GraphTests {
    private var graph: EntityGraph {
        let run = Fixture.run()
        return EntityGraph(model: run.reports[0].model, findings: run.reports[0].findings)
    }

    @Test func mermaidMatchesExpectedOutput() throws {
        let actual = MermaidGraph.render(graph)
        #expect(Fixture.normalized(actual) == (try Fixture.expected("fixture.graph.mmd", actual: actual)))
    }

    @Test func dotMatchesExpectedOutput() throws {
        let actual = DOTGraph.render(graph)
        #expect(Fixture.normalized(actual) == (try Fixture.expected("fixture.graph.dot", actual: actual)))
    }

    @Test func edgesCarryDeleteRulesAndFindingsTheirColour() {
        let graph = self.graph
        #expect(graph.nodes.map(\.name) == ["Author", "Book", "Shelf", "Loan"])
        let labels = graph.edges.map(\.label)
        #expect(labels.contains("books: to-many, Cascade"))
        #expect(labels.contains("editor: to-one, No Action"))
        #expect(graph.edges.first { $0.label.hasPrefix("editor") }?.highlight == .warning)
        #expect(graph.nodes.first { $0.name == "Book" }?.attributes.first { $0.name == "title" }?.highlight == .error)
        #expect(graph.modelFindings.map(\.ruleID) == ["test_model_level"])
        let dot = DOTGraph.render(graph)
        #expect(dot.contains("#d00000") && dot.contains("#ff8c00"))
    }

    /// Cardinality marks, pairs, inheritance, a relationship that is its own inverse, a name that
    /// is not a Mermaid word, and a finding about an entity itself.
    @Test func mermaidDrawsOneLinePerPairWithCardinalities() throws {
        let contents = """
            <?xml version="1.0" encoding="UTF-8" standalone="yes"?>
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Team">
                    <relationship name="players" toMany="YES" minCount="1" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                    <relationship name="coach" maxCount="1" deletionRule="Nullify" destinationEntity="Coach" inverseName="team" inverseEntity="Coach"/>
                </entity>
                <entity name="Person" isAbstract="YES">
                    <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
                </entity>
                <entity name="Player" parentEntity="Person">
                    <attribute name="shirt number" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                    <relationship name="team" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                <entity name="Coach" parentEntity="Person">
                    <relationship name="team" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Team" inverseName="coach" inverseEntity="Team"/>
                    <relationship name="formerTeam" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="coach" inverseEntity="Team"/>
                </entity>
            </model>
            """
        let model = try ModelLoader().model(fromContents: Array(contents.utf8), file: "Club.xcdatamodel/contents")
        let finding = Finding(ruleID: "abstract_check", severity: .warning, message: "m", location: model.entities[1].location,
                              entityName: "Person")
        let mermaid = MermaidGraph.render(EntityGraph(model: model, findings: [finding]))
        #expect(mermaid == """
            %% Club.xcdatamodel/contents: entity-relationship diagram by momlint
            erDiagram
                Team {
                }
                Person {
                    momlint abstract "abstract entity"
                    momlint warning "abstract_check"
                }
                Player {
                    Integer16 shirt_number "optional"
                }
                Coach {
                }
                Team ||--|{ Player : "players: Cascade / team: Nullify"
                Team |o--|| Coach : "coach: Nullify / team: Deny"
                Person }o--o{ Person : "friends: Nullify (its own inverse)"
                Player |o..|| Person : "is a"
                Coach |o..|| Person : "is a"
                Coach }o--o| Team : "formerTeam: Nullify (one-sided inverse)"

            """)
    }

    /// Names Mermaid would misread: keywords and non-words are quoted, attribute names made words.
    @Test func mermaidNamesParseInEveryRelease() {
        #expect(MermaidGraph.entityName("Book") == "Book")
        #expect(MermaidGraph.entityName("One") == "\"One\"")
        #expect(MermaidGraph.entityName("to") == "\"to\"")
        #expect(MermaidGraph.entityName("_Private") == "\"_Private\"")
        #expect(MermaidGraph.entityName("Line Item") == "\"Line Item\"")
        #expect(MermaidGraph.entityName("Bad\"Name%") == "\"Bad_Name_\"")
        #expect(MermaidGraph.attributeWord("shirt number") == "shirt_number")
        #expect(MermaidGraph.attributeWord("_id") == "a_id")
        #expect(MermaidGraph.attributeWord("pk") == "pk_")
        #expect(MermaidGraph.attributeWord("pkgName") == "pkgName")
        #expect(MermaidGraph.attributeWord("") == "unnamed")
    }

    static let dot: String? = ["/usr/bin/dot", "/usr/local/bin/dot", "/opt/homebrew/bin/dot"]
        .first(where: FileManager.default.isExecutableFile(atPath:))

    @Test(.enabled(if: dot != nil, "needs Graphviz: apt-get install -y graphviz"))
    func graphvizRendersTheDOTToAnImage() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-graph-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = folder.appendingPathComponent("library.dot")
        try DOTGraph.render(graph).write(to: source, atomically: true, encoding: .utf8)
        for format in ["svg", "png"] {
            let image = folder.appendingPathComponent("library.\(format)")
            let result = try String.runProcess(try #require(Self.dot), ["-T\(format)", source.path, "-o", image.path])
            #expect(result.status == 0, "dot failed: \(result.error)")
            let data = try Data(contentsOf: image)
            #expect(data.count > 500)
            if format == "png" { #expect(data.starts(with: [0x89, 0x50, 0x4E, 0x47])) }
            if format == "svg" { #expect(String(decoding: data, as: UTF8.self).contains("Book")) }
        }
    }
}

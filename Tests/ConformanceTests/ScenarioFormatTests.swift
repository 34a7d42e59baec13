import Conformance
import Foundation
import ReferenceStore
import Testing

/// The scenario format's later additions: generator steps, per-scenario time limits, features
/// inferred from the steps, every error of a file, and the documented example.
@Suite struct ScenarioFormatTests {
    static let header = """
        id: test.format
        description: a scenario written by a test
        references: [NSValidationRelationshipDeniedDeleteError (CoreDataErrors.h)]

        """

    static func problems(_ yaml: String) -> [ScenarioLoadError] {
        ScenarioLoader().problems(inYAML: header + yaml, file: Fixtures.scenarioDirectory + "/inline/format.yaml")
    }

    @Test func theContractsExampleLoads() throws {
        let contract = try String(contentsOf: Fixtures.packageRoot.appendingPathComponent("docs/adapter-contract.md"),
                                  encoding: .utf8)
        let section = try #require(contract.range(of: "## 9. Scenario files"))
        let rest = contract[section.upperBound...]
        let start = try #require(rest.range(of: "```yaml\n"))
        let end = try #require(rest[start.upperBound...].range(of: "```"))
        let scenario = try Fixtures.scenario(String(rest[start.upperBound..<end.lowerBound]), file: "deny/example.yaml")
        #expect(scenario.id == "deny.example-non-empty-to-many")
        #expect(scenario.steps.count == 8)
    }

    /// 'Link.next' and 'Link.previous' both cascade, so deleting any link deletes the chain.
    @Test func aChainNamesEveryLinkAndTheRunnerLinksThemInOrder() async throws {
        let scenario = try Fixtures.scenario("""
            id: test.chain
            description: a chain
            references: [x]
            features: [delete-rules]
            timeLimit: 60
            model: ../../Models/Conformance/Cascade.xcdatamodeld
            steps:
              - chain: {entity: Link, as: link, count: 5, relationship: next, values: {label: x}}
              - save
              - expect:
                  related: {link-1.next: link-2, link-5.previous: link-4, link-5.next: []}
                  values: {link-3: {label: x}}
              - delete: link-3
              - expect: {gone: [link-1, link-3, link-5], count: {Link: 0}}
            """)
        #expect(scenario.timeLimit == .seconds(60))
        let result = await ConformanceRunner().run(scenario, adapter: ReferenceStoreAdapter())
        #expect(result.verdict == .pass)
    }

    @Test func aFanOutLinksEveryObjectInOrder() async throws {
        let scenario = try Fixtures.scenario("""
            id: test.fan-out
            description: a fan-out
            references: [x]
            features: [ordered]
            model: ../../Models/Conformance/Nullify.xcdatamodeld
            steps:
              - insert: {entity: Person, as: ada}
              - fanOut: {object: ada, relationship: playlist, entity: Song, as: song, count: 3}
              - save
              - expect: {related: {ada.playlist: [song-1, song-2, song-3], song-2.listener: ada}}
            """)
        let result = await ConformanceRunner().run(scenario, adapter: ReferenceStoreAdapter())
        #expect(result.verdict == .pass)
    }

    /// Contract §9.2: a generator's requests are its inserts first, then its links, in order.
    @Test func aFanOutSendsEveryInsertBeforeItsLinks() async throws {
        let scenario = try Fixtures.scenario("""
            id: test.fan-out-order
            description: a fan-out's requests
            references: [x]
            features: [ordered]
            model: ../../Models/Conformance/Nullify.xcdatamodeld
            steps:
              - insert: {entity: Person, as: ada}
              - fanOut: {object: ada, relationship: playlist, entity: Song, as: song, count: 3}
            """)
        let recorder = RequestRecorder()
        let result = await ConformanceRunner().run(scenario, adapter: recorder)
        #expect(result.verdict == .pass)
        #expect(recorder.requests.dropFirst() == [
            .insert(entity: "Song", object: "song-1", values: [:]),
            .insert(entity: "Song", object: "song-2", values: [:]),
            .insert(entity: "Song", object: "song-3", values: [:]),
            .link(object: "ada", relationship: "playlist", destination: "song-1"),
            .link(object: "ada", relationship: "playlist", destination: "song-2"),
            .link(object: "ada", relationship: "playlist", destination: "song-3"),
        ])
    }

    /// The contract's own example size (§9.2): a folder of 1,000 files, saved, then deleted with
    /// them. Checking the whole graph after each request made this take 16 s in a debug build
    /// (the one CI runs), past the runner's default limit of 10 s.
    @Test func aFanOutOfAThousandPassesOnTheReferenceStoreWithinTheDefaultLimit() async throws {
        let scenario = try Fixtures.scenario("""
            id: test.fan-out-of-a-thousand
            description: a folder of 1,000 files deleted with them
            references: [x]
            features: [delete-rules]
            model: ../../Models/Conformance/Cascade.xcdatamodeld
            steps:
              - insert: {entity: Folder, as: root}
              - fanOut: {object: root, relationship: files, entity: File, as: file, count: 1000, values: {name: f}}
              - save
              - expect: {count: {File: 1000}, related: {file-1000.folder: root}}
              - delete: root
              - save
              - expect: {gone: [root, file-1, file-500, file-1000], count: {File: 0}}
            """)
        #expect(scenario.timeLimit == nil)
        let result = await ConformanceRunner().run(scenario, adapter: ReferenceStoreAdapter())
        #expect(result.verdict == .pass)
    }

    @Test func generatedNamesMustBeNewAndCountsBounded() {
        let clash = Self.problems("""
            features: []
            model: ../../Models/Conformance/Cascade.xcdatamodeld
            steps:
              - insert: {entity: Link, as: link-2}
              - chain: {entity: Link, as: link, count: 3, relationship: next}
              - chain: {entity: Link, as: other, count: 0, relationship: next}
            """)
        #expect(clash.map(\.message) == [
            "'link-2' is already inserted; generated names 'link-1' … 'link-3' must be new",
            "'count' must be between 1 and 1000000",
        ])
    }

    @Test func everyErrorOfAFileIsReportedWithItsPlace() {
        let errors = Self.problems("""
            features: [no-such-feature]
            model: ../../Models/Conformance/Company.xcdatamodeld
            steps:
              - insert: {entity: Nobody, as: ghost}
              - link: {object: ghost, relationship: department, to: ghost}
              - insert: {entity: Employee, as: alice, values: {shoeSize: 3}}
              - frobnicate: alice
            """)
        #expect(errors.map(\.message) == [
            "unknown feature 'no-such-feature'; expected one of: "
                + Feature.allCases.map(\.rawValue).joined(separator: ", "),
            "the model has no entity 'Nobody'",
            "'Employee' has no attribute 'shoeSize'",
            "unknown step 'frobnicate'; expected one of: insert, set, link, unlink, delete, save, reset, reopen, expect, chain, fanOut, refresh, refreshAll, validate",
        ])
        #expect(errors.allSatisfy { $0.line != nil && $0.column != nil })
    }

    @Test(arguments: [
        ("steps:\n  - insert: {entity: Department, as: d}\n  - save\n  - delete: d\n  - save\n", "delete-rules"),
        ("steps:\n  - insert: {entity: Employee, as: e}\n  - save: {fails: 1570, object: e, key: name}\n", "validation"),
        ("steps:\n  - insert: {entity: Employee, as: e}\n  - save: {fails: 1560, details: [1570, {code: 1610}]}\n", "validation"),
        ("steps:\n  - insert: {entity: Employee, as: e}\n  - save: {fails: 133021}\n", "constraints"),
        ("steps:\n  - insert: {entity: Employee, as: e}\n  - expect: {saved: true, gone: [e]}\n", "saved-state"),
    ])
    func featuresAreInferredFromTheSteps(steps: String, feature: String) {
        let errors = Self.problems("features: []\nmodel: ../../Models/Conformance/Company.xcdatamodeld\n" + steps)
        #expect(errors.contains { $0.message.hasPrefix("this step needs feature '\(feature)'") })
    }

    @Test func insertingAConstrainedEntityNeedsConstraints() {
        let errors = Self.problems("""
            features: []
            model: ../../Models/Conformance/Constraints.xcdatamodeld
            steps:
              - insert: {entity: Customer, as: c, values: {email: a@example.com}}
              - save
            """)
        #expect(errors.map(\.message) == ["this step needs feature 'constraints'; add it to 'features' so adapters "
            + "that lack it skip the scenario"])
    }

    @Test func aDuplicateIDPointsAtTheIDLine() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("momlint-format-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let text = "# a comment first\n" + Self.header + "features: []\nmodel: \(Fixtures.modelPath("Company"))\nsteps: [save]\n"
        try text.write(toFile: directory + "/a.yaml", atomically: true, encoding: .utf8)
        try text.write(toFile: directory + "/b.yaml", atomically: true, encoding: .utf8)
        let suite = ScenarioLoader().loadSuite(in: directory)
        #expect(suite.errors.map(\.description) == [
            "\(directory)/b.yaml:2:1: error: scenario id 'test.format' is already used by \(directory)/a.yaml; ids must be unique",
        ])
    }

    @Test func aScenarioMayAllowItselfMoreTimeThanTheRunner() throws {
        let errors = Self.problems("features: []\ntimeLimit: 0\nmodel: ../../Models/Conformance/Company.xcdatamodeld\nsteps: [save]\n")
        #expect(errors.map(\.message) == ["'timeLimit' must be between 1 and 3600 seconds"])
    }
}

/// An adapter whose store answers `done` to everything and remembers what it was asked.
private final class RequestRecorder: StoreAdapter, ConformanceStore, @unchecked Sendable {
    private(set) var requests: [StoreRequest] = []

    var name: String { "recorder" }

    func openStore(_ setup: StoreSetup) throws -> any ConformanceStore { self }

    func perform(_ request: StoreRequest) throws -> StoreResponse {
        requests.append(request)
        return .done
    }
}

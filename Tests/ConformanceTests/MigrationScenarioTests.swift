import Conformance
import DataModel
import Foundation
import ModelDiff
@testable import ReferenceStore
import Testing

/// Contract 1.3: `reopen: {model, migrate, fails}` — the parser's forms and errors, what the
/// runner does with the store's answer, and the reference store's in-memory migration.
@Suite struct MigrationScenarioTests {
    static let bundle = "../../Models/Conformance/Migrations/Items.xcdatamodeld"

    static func version(_ name: String) -> String { bundle + "/Items \(name).xcdatamodel" }

    static func scenario(_ steps: String, features: String = "[reopen, migration]") throws(ScenarioLoadError) -> Scenario {
        try Fixtures.scenario("""
            id: test.migration
            description: a migration written by a test
            references: [x]
            features: \(features)
            model: \(bundle)
            steps:
            \(steps)
            """, file: "inline/migration.yaml")
    }

    static func problems(_ steps: String, features: String = "[reopen, migration]") -> [String] {
        ScenarioLoader().problems(inYAML: """
            id: test.migration
            description: a migration written by a test
            references: [x]
            features: \(features)
            model: \(bundle)
            steps:
            \(steps)
            """, file: Fixtures.scenarioDirectory + "/inline/migration.yaml").map(\.message)
    }

    static let lamp = """
          - insert: {entity: Item, as: lamp, values: {name: Lamp, note: desk}}
          - save
        """

    // MARK: Parsing

    @Test func theMappingFormReadsModelMigrateAndFails() throws {
        let scenario = try Self.scenario(Self.lamp + """

              - reopen: {model: \(Self.version("AddOptional")), migrate: none, fails: 134100}
              - reopen: {model: \(Self.version("Renamed"))}
            """)
        guard case .reopenWithModel(let refused) = scenario.steps[2].action,
              case .reopenWithModel(let renamed) = scenario.steps[3].action else {
            Issue.record("expected two reopens with a model, got \(scenario.steps.map(\.description))")
            return
        }
        #expect(refused.migration == .none)
        #expect(refused.expectedFailure == 134100)
        #expect(refused.versionName == "Items AddOptional")
        #expect(refused.model.entity(named: "Item")?.attributes.contains { $0.name == "subtitle" } == true)
        // Lightweight unless the step says otherwise, as NSPersistentContainer does.
        #expect(renamed.migration == .lightweight)
        #expect(renamed.expectedFailure == nil)
        // Item was renamed Entry through its renaming identifier: the object moves with it.
        #expect(renamed.entityOfObject == ["lamp": "Entry"])
        #expect(scenario.steps[3].description == "reopen with 'Items Renamed' (migrate: lightweight)")
    }

    @Test func laterStepsAreCheckedAgainstTheNewVersion() throws {
        _ = try Self.scenario(Self.lamp + """

              - reopen: {model: \(Self.version("Renamed"))}
              - expect: {values: {lamp: {title: Lamp}}, count: {Entry: 1}}
            """)
        #expect(Self.problems(Self.lamp + """

              - reopen: {model: \(Self.version("Renamed"))}
              - expect: {values: {lamp: {name: Lamp}}}
            """) == ["'Entry' has no attribute 'name'"])
    }

    @Test func afterAnExpectedFailureTheOldVersionStays() throws {
        _ = try Self.scenario(Self.lamp + """

              - reopen: {model: \(Self.version("Renamed")), fails: 134140}
              - expect: {values: {lamp: {name: Lamp}}, count: {Item: 1}}
            """)
    }

    @Test func objectsOfARemovedEntityMayOnlyBeExpectedGone() throws {
        let steps = """
              - insert: {entity: Bin, as: screws}
              - save
              - reopen: {model: ../../Models/Conformance/Migrations/Storage.xcdatamodeld/Storage NoBins.xcdatamodel}
            """
        let yaml = { (rest: String) in """
            id: test.removed
            description: d
            references: [x]
            features: [reopen, migration]
            model: ../../Models/Conformance/Migrations/Storage.xcdatamodeld
            steps:
            \(steps)
            \(rest)
            """ }
        _ = try Fixtures.scenario(yaml("  - expect: {gone: screws, exists: []}"), file: "inline/removed.yaml")
        let errors = ScenarioLoader().problems(inYAML: yaml("  - expect: {values: {screws: {label: x}}}"),
                                               file: Fixtures.scenarioDirectory + "/inline/removed.yaml")
        #expect(errors.map(\.message) == ["'screws' is a 'Bin', an entity the model version opened by an earlier "
            + "'reopen' no longer has; only 'exists' and 'gone' can name it"])
    }

    @Test func theFeaturesMigrationAndReopenAreRequired() {
        let errors = Self.problems(Self.lamp + "\n  - reopen: {model: \(Self.version("AddOptional"))}", features: "[]")
        #expect(errors.contains { $0.hasPrefix("this step needs feature 'migration'") })
        #expect(errors.contains { $0.hasPrefix("this step needs feature 'reopen'") })
    }

    @Test(arguments: [
        ("{model: ../../Models/Conformance/Migrations/Items.xcdatamodeld/Items Nope.xcdatamodel}",
         "no model version at '../../Models/Conformance/Migrations/Items.xcdatamodeld/Items Nope.xcdatamodel'"),
        ("{model: \(version("AddOptional")), migrate: heavyweight}",
         "unknown 'migrate' value 'heavyweight'; expected one of: none, lightweight"),
        ("{model: \(version("AddOptional")), fails: 1570}",
         "opening a store with another model version fails with one of 134100 (NSPersistentStoreIncompatibleVersionHashError), "
            + "134110 (NSMigrationError), 134140 (NSMigrationMissingMappingModelError), not 1570"),
        ("{model: \(version("AddOptional")), mode: none}", "'mode'"),
        ("{migrate: none}", "'model'"),
        ("{model: /etc}", "'model' must name an .xcdatamodeld bundle, an .xcdatamodel folder or a contents file"),
        ("{model: ../../../../../../../../tmp/Elsewhere.xcdatamodel}", "is outside the scenario folder"),
        ("[a, b]", "'reopen' takes no arguments, a mapping {model: <version>, migrate: lightweight|none, fails: <code>}, or {readOnly: true}"),
    ])
    func aBadReopenIsOneClearError(body: String, message: String) {
        // The steps after it are written for the version it names: they are not checked
        // against the old one, which would only add false errors.
        let errors = Self.problems(Self.lamp + "\n  - reopen: \(body)\n  - expect: {values: {lamp: {subtitle: null}}}")
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains(message) == true, "\(errors)")
    }

    // MARK: Running

    /// A store that answers every reopen with a fixed response and records what it was asked.
    final class ScriptedStore: ConformanceStore {
        let answer: StoreResponse
        private(set) var reopens: [(String, MigrationMode)] = []
        let inner: ReferenceStore

        init(answer: StoreResponse, model: Model) throws {
            self.answer = answer
            inner = try ReferenceStore(model: model)
        }

        func perform(_ request: StoreRequest) throws -> StoreResponse { try inner.perform(request) }

        func reopen(with model: Model, modelPath: String, migration: MigrationMode) throws -> StoreResponse {
            reopens.append(((modelPath as NSString).lastPathComponent, migration))
            return answer
        }
    }

    static func verdict(_ steps: String, answer: StoreResponse) async throws -> ScenarioResult.Verdict {
        let scenario = try Self.scenario(Self.lamp + "\n" + steps)
        let adapter = ClosureStoreAdapter(name: "scripted") { setup in try ScriptedStore(answer: answer, model: setup.model) }
        return await ConformanceRunner().run(scenario, adapter: adapter).verdict
    }

    @Test func theRunnerComparesTheOpenFailureCode() async throws {
        let refused = StoreResponse.openFailed(OpenFailure(code: 134100, message: "hashes differ"))
        let step = "  - reopen: {model: \(Self.version("AddOptional")), migrate: none, fails: 134100}"
        #expect(try await Self.verdict(step, answer: refused) == .pass)
        guard case .fail(let message, let line) = try await Self.verdict(step, answer: .done) else {
            Issue.record("a store that opens must fail a scenario expecting 134100")
            return
        }
        #expect(message.contains("expected opening to fail with 134100 (NSPersistentStoreIncompatibleVersionHashError), "
            + "but the store opened with this version"))
        #expect(line == 9)
        let wrongCode = StoreResponse.openFailed(OpenFailure(code: 134140, message: "no mapping"))
        guard case .fail(let other, _) = try await Self.verdict(step, answer: wrongCode) else {
            Issue.record("another code must fail the scenario")
            return
        }
        #expect(other.contains("but it failed with 134140 (NSMigrationMissingMappingModelError): no mapping"))
    }

    @Test func anUnexpectedOpenFailureFailsTheStep() async throws {
        let step = "  - reopen: {model: \(Self.version("AddOptional"))}"
        let verdict = try await Self.verdict(step, answer: .openFailed(OpenFailure(code: 134110, message: "nil left")))
        guard case .fail(let message, _) = verdict else {
            Issue.record("expected a failure, got \(verdict)")
            return
        }
        #expect(message.contains("expected the store to open with this version, but opening failed with 134110"))
    }

    @Test func aStoreWithoutMigrationIsSkippedWhenItsAdapterSaysSo() async throws {
        let scenario = try Self.scenario(Self.lamp + "\n  - reopen: {model: \(Self.version("AddOptional"))}")
        let adapter = ClosureStoreAdapter(name: "plain", unsupportedFeatures: [.migration]) { try ReferenceStore(model: $0.model) }
        #expect(await ConformanceRunner().run(scenario, adapter: adapter).verdict == .skip(missingFeatures: [.migration]))
    }

    /// After a rename to an ordered relationship, `related` compares in order: the runner reads
    /// the current version, not the scenario's first model.
    @Test func relatedReadsOrderingFromTheCurrentVersion() async throws {
        let scenario = try Fixtures.scenario("""
            id: test.ordered-after-migration
            description: d
            references: [x]
            features: [reopen, migration, ordered]
            model: ../../Models/Conformance/Migrations/Shelves.xcdatamodeld
            steps:
              - insert: {entity: Author, as: ursula}
              - insert: {entity: Book, as: a}
              - save
              - reopen: {model: ../../Models/Conformance/Migrations/Shelves.xcdatamodeld/Shelves OrderedBooks.xcdatamodel}
              - insert: {entity: Book, as: b}
              - insert: {entity: Book, as: c}
              - link: {object: ursula, relationship: books, to: [c, b]}
              - save
              - expect: {related: {ursula.books: [b, c]}}
            """, file: "inline/ordered.yaml")
        guard case .fail(let message, _) = await ConformanceRunner().run(scenario, adapter: ReferenceStoreAdapter()).verdict else {
            Issue.record("the wrong order must fail once the relationship is ordered")
            return
        }
        #expect(message.contains("in this order"))
    }
}

/// The reference store's migration, request by request.
@Suite struct ReferenceStoreMigrationTests {
    static func version(_ bundle: String, _ name: String) throws -> Model {
        let path = Fixtures.packageRoot
            .appendingPathComponent("Fixtures/Models/Conformance/Migrations/\(bundle).xcdatamodeld/\(name).xcdatamodel").path
        let result = ModelLoader().load(paths: [path])
        if let failure = result.failures.first { throw failure }
        return result.models[0]
    }

    static func items() throws -> ReferenceStore {
        let store = try ReferenceStore(model: try version("Items", "Items"))
        _ = try store.perform(.insert(entity: "Item", object: "lamp", values: ["name": .string("Lamp"), "note": .string("desk")]))
        _ = try store.perform(.insert(entity: "Item", object: "rug", values: ["name": .string("Rug")]))
        #expect(try store.perform(.save(policy: .error)) == .saved)
        return store
    }

    static func code(_ response: StoreResponse) -> Int? {
        if case .openFailed(let failure) = response { return failure.code }
        return nil
    }

    @Test func theSameVersionOpensWithoutMigration() throws {
        let store = try Self.items()
        #expect(try store.reopen(with: try Self.version("Items", "Items"), modelPath: "", migration: .none) == .done)
        #expect(try store.perform(.value(object: "lamp", attribute: "note")) == .value(.string("desk")))
    }

    @Test func aChangedVersionWithoutMigrationIs134100AndChangesNothing() throws {
        let store = try Self.items()
        _ = try store.perform(.set(object: "lamp", attribute: "note", value: .string("pending")))
        let response = try store.reopen(with: try Self.version("Items", "Items AddOptional"), modelPath: "", migration: .none)
        #expect(Self.code(response) == 134100)
        // Pending changes are discarded (it was a reopen); saved data and the old model remain.
        #expect(try store.perform(.value(object: "lamp", attribute: "note")) == .value(.string("desk")))
        #expect(throws: StoreAdapterError.self) { try store.perform(.value(object: "lamp", attribute: "subtitle")) }
    }

    /// Observed (WooCommerce Model 87 → 88, a stored 1 reads back as 1.0): a numeric type change
    /// migrates and converts each value, here Integer 32 → Double.
    @Test func aNumericTypeChangeMigratesConvertingTheValues() throws {
        let store = try Self.items()
        _ = try store.perform(.set(object: "lamp", attribute: "count", value: .integer(2)))
        #expect(try store.perform(.save(policy: .error)) == .saved)
        let response = try store.reopen(with: try Self.version("Items", "Items CountAsDouble"), modelPath: "", migration: .lightweight)
        #expect(response == .done)
        #expect(try store.perform(.value(object: "lamp", attribute: "count")) == .value(.double(2.0)))
        #expect(try store.perform(.value(object: "rug", attribute: "count")) == .value(.null))
    }

    /// To an integer type a fraction is truncated toward zero, as SQLite's CAST does (inferred).
    @Test(arguments: [(2.75, Int64(2)), (-2.75, Int64(-2)), (1e300, Int64.max)])
    func aFloatingValueMigratedToAnIntegerIsTruncated(value: Double, expected: Int64) throws {
        let change = try #require(NumericTypeChange(from: .double, to: .integer32))
        #expect(ReferenceStore.converted(.double(value), by: change) == .integer(expected))
        #expect(ReferenceStore.converted(.null, by: change) == .null)
    }

    @Test func aTypeChangeIs134140() throws {
        let store = try Self.items()
        let response = try store.reopen(with: try Self.version("Items", "Items CountAsText"), modelPath: "", migration: .lightweight)
        #expect(Self.code(response) == 134140)
        guard case .openFailed(let failure) = response else { return }
        #expect(failure.message.contains("'Item.count' type"))
    }

    @Test func aNilLeftInARequiredAttributeIs134110NamingTheObject() throws {
        let store = try Self.items()
        let response = try store.reopen(with: try Self.version("Items", "Items RequireNote"), modelPath: "", migration: .lightweight)
        #expect(response == .openFailed(OpenFailure(code: 134110, message:
            "'rug' (Item) would have no value for the required attribute 'note', which has no default value")))
        #expect(try store.perform(.count(entity: "Item")) == .count(2))
    }

    @Test func renamesCarryValuesAndTheNewVersionGovernsLaterRequests() throws {
        let store = try Self.items()
        #expect(try store.reopen(with: try Self.version("Items", "Items Renamed"), modelPath: "", migration: .lightweight) == .done)
        #expect(try store.perform(.value(object: "lamp", attribute: "title")) == .value(.string("Lamp")))
        #expect(try store.perform(.count(entity: "Entry")) == .count(2))
        #expect(throws: StoreAdapterError.self) { try store.perform(.count(entity: "Item")) }
        _ = try store.perform(.insert(entity: "Entry", object: "chair", values: [:]))
        #expect(try store.perform(.save(policy: .error)) == .saved)
        #expect(try store.perform(.value(object: "chair", attribute: "sku")) == .value(.string("unknown")))
    }

    @Test func linksSurviveAToOneBecomingToManyOnBothSides() throws {
        let store = try ReferenceStore(model: try Self.version("Shelves", "Shelves"))
        _ = try store.perform(.insert(entity: "Author", object: "ursula", values: [:]))
        _ = try store.perform(.insert(entity: "Agent", object: "virginia", values: [:]))
        _ = try store.perform(.link(object: "ursula", relationship: "agent", destination: "virginia"))
        #expect(try store.perform(.save(policy: .error)) == .saved)
        #expect(try store.reopen(with: try Self.version("Shelves", "Shelves AgentToMany"), modelPath: "", migration: .lightweight) == .done)
        #expect(try store.perform(.related(object: "ursula", relationship: "agent")) == .objects(["virginia"]))
        #expect(try store.perform(.related(object: "virginia", relationship: "client")) == .objects(["ursula"]))
        #expect(try store.performOnSavedState(.related(object: "ursula", relationship: "agent")) == .objects(["virginia"]))
    }
}

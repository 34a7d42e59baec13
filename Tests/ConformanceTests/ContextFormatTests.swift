import Conformance
import Foundation
import ReferenceStore
import Testing

/// Contract 1.4 in the scenario format and the shared fetch pipeline: contexts, the new steps
/// and expectations, the predicate parser, sorting and paging, and the features they imply.
@Suite struct ContextFormatTests {
    static let header = """
        id: test.contexts
        description: a scenario written by a test
        references: [https://developer.apple.com/documentation/coredata/nsmanagedobjectcontext]
        model: ../../Models/Conformance/Contexts.xcdatamodeld

        """

    static func problems(_ yaml: String) -> [String] {
        ScenarioLoader().problems(inYAML: header + yaml, file: Fixtures.scenarioDirectory + "/inline/contexts.yaml")
            .map(\.message)
    }

    @Test func contextsStepsAndExpectationsLoadWithTheirFeatures() throws {
        let scenario = try Fixtures.scenario(Self.header + """
            features: [contexts, child-contexts, refresh, validate, change-tracking, fetch-requests, store-options, reopen, merge-policy, delete-rules]
            contexts:
              editor: {mergePolicy: overwrite}
              draft: {parent: editor}
            steps:
              - insert: {entity: Item, as: lamp, values: {name: Lamp, price: 10}, context: editor}
              - save: {context: editor}
              - refresh: {object: lamp, mergeChanges: true}
              - refreshAll: {context: draft}
              - validate: {object: lamp, key: quantity, value: 11, fails: 1610}
              - delete: {objects: [lamp], context: draft}
              - expect: {context: draft, hasChanges: true, deleted: [lamp], isDeleted: {lamp: true}}
              - expect: {fetch: {entity: Item, where: "price >= 10", sortBy: [{key: price, ascending: false}], limit: 1, result: [lamp]}}
              - reopen: {readOnly: true}
            """, file: "contexts/inline.yaml")
        #expect(scenario.contexts == [ContextDeclaration(name: "editor", mergePolicy: .overwrite),
                                      ContextDeclaration(name: "draft", parent: "editor")])
        #expect(scenario.steps.map(\.context) == ["editor", "editor", nil, "draft", nil, "draft", "draft", nil, nil])
        // The editor's declared policy is its saves' default; the failure names the validated key.
        guard case .save(.overwrite, .succeeds) = scenario.steps[1].action else { Issue.record("\(scenario.steps[1])"); return }
        guard case .validate(_, _, _, let failure?) = scenario.steps[4].action else { Issue.record("\(scenario.steps[4])"); return }
        #expect(failure == ExpectedFailure(code: 1610, object: "lamp", key: "quantity"))
    }

    @Test func eachNewPartNeedsItsFeature() {
        let steps = """
            contexts:
              editor: {}
              draft: {parent: main}
            steps:
              - insert: {entity: Item, as: lamp}
              - refreshAll
              - validate: {object: lamp, key: quantity, value: 1}
              - expect: {hasChanges: true, fetch: {entity: Item, result: [lamp]}}
              - reopen: {readOnly: false}
            """
        let needed = Self.problems("features: []\n" + steps).compactMap { $0.firstMatch(of: /needs feature '([a-z-]+)'/)?.output.1 }
        #expect(Set(needed.map(String.init)) == ["contexts", "child-contexts", "refresh", "validate", "change-tracking",
                                                  "fetch-requests", "store-options", "reopen"])
    }

    @Test func badContextsAndFetchesAreClearErrors() {
        let problems = Self.problems("""
            features: [contexts, fetch-requests, child-contexts]
            contexts:
              main: {}
              draft: {parent: nowhere}
            steps:
              - insert: {entity: Item, as: lamp, context: elsewhere}
              - insert: {entity: Item, as: desk}
              - chain: {entity: Item, as: link, count: 2, relationship: category, context: main}
              - expect: {fetch: {entity: Item, limit: 1, result: [desk]}}
              - expect: {fetch: {entity: Item, where: "price >", result: []}}
              - expect: {fetch: {entity: Item, where: "shade == 1", result: []}}
              - expect: {fetch: {entity: Item, sortBy: [category], result: []}}
              - expect: {saved: true, hasChanges: false}
            """)
        let expected = [
            "'main' is the default context, which every scenario has; declare only the others",
            "no context 'nowhere' is declared before 'draft'; a parent is 'main' or a context listed above",
            "no context 'elsewhere' is declared; declare it under 'contexts:' (the default is 'main')",
            "'chain' does not take a context: it works on the whole store",
            "a fetch with 'limit' needs 'sortBy': without sort descriptors which objects come first is unspecified",
            "cannot read the predicate 'price >': expected a key path or a value (at character 8)",
            "'Item' has no attribute or relationship 'shade' (in the key path 'shade')",
            "sort by an attribute, not the relationship 'category'",
            "'saved: true' reads the store's saved data, which has no 'hasChanges'; check it without 'saved'",
        ]
        for message in expected {
            #expect(problems.contains(message), "missing: \(message)\nall: \(problems)")
        }
    }

    @Test func predicatesParseAsApplesFormatReadsThem() throws {
        let predicate = try FetchPredicate(format: "price >= 10 && (name BEGINSWITH[cd] 'ca' || NOT quantity IN {1, 2}) AND note == nil")
        guard case .and(let parts) = predicate.expression, parts.count == 3 else { Issue.record("\(predicate)"); return }
        #expect(parts[0] == .comparison(PredicateComparison(left: .keyPath(["price"]), operator: .greaterOrEqual,
                                                            right: .value(.integer(10)))))
        #expect(parts[2] == .comparison(PredicateComparison(left: .keyPath(["note"]), operator: .equal, right: .value(.null))))
        guard case .or(let alternatives) = parts[1] else { Issue.record("\(parts[1])"); return }
        #expect(alternatives[0] == .comparison(PredicateComparison(left: .keyPath(["name"]), operator: .beginsWith,
                                                                   right: .value(.string("ca")), caseInsensitive: true,
                                                                   diacriticInsensitive: true)))
        #expect(alternatives[1] == .not(.comparison(PredicateComparison(left: .keyPath(["quantity"]), operator: .in,
                                                                        right: .list([.integer(1), .integer(2)])))))
        #expect(try FetchPredicate(format: "when < CAST(100, \"NSDate\")").expression
            == .comparison(PredicateComparison(left: .keyPath(["when"]), operator: .less,
                                               right: .value(.date(secondsSinceReferenceDate: 100)))))
        for bad in ["", "price", "price ~ 3", "name BEGINSWITH[x] 'a'", "price BETWEEN {1}", "(price > 1", "name == 'open"] {
            #expect(throws: PredicateSyntaxError.self, "\(bad)") { try FetchPredicate(format: bad) }
        }
    }

    @Test func comparisonsFollowTheContract() throws {
        func matches(_ format: String, _ values: [String: AttributeValue]) throws -> Bool {
            try FetchPredicate(format: format).expression.evaluate { values[$0.joined(separator: ".")] ?? .null }
        }
        #expect(try matches("name LIKE 'c*r'", ["name": .string("chair")]))
        #expect(try !matches("name MATCHES 'ch'", ["name": .string("chair")]), "MATCHES is anchored")
        #expect(try matches("name ==[c] 'CHAIR'", ["name": .string("chair")]))
        #expect(try matches("price BETWEEN {5, 10}", ["price": .double(10)]), "both bounds are included")
        #expect(try !matches("price > 1", [:]), "a null matches no ordering")
        #expect(try matches("price != 1", [:]), "a null is not equal to a value")
        #expect(try matches("flag == YES", ["flag": .bool(true)]))
    }

    @Test func sortingPutsNilFirstAndPagesAfterSorting() {
        let values: [String: AttributeValue] = ["a": .integer(3), "b": .null, "c": .integer(1), "d": .integer(2)]
        var request = FetchRequest(entity: "Item", sortDescriptors: [SortDescriptor(key: "n")])
        let names = ["a", "b", "c", "d"]
        #expect(request.execute(over: names) { name, _ in values[name]! } == ["b", "c", "d", "a"])
        request.sortDescriptors = [SortDescriptor(key: "n", ascending: false)]
        #expect(request.execute(over: names) { name, _ in values[name]! } == ["a", "d", "c", "b"])
        request.fetchOffset = 1
        request.fetchLimit = 2
        #expect(request.execute(over: names) { name, _ in values[name]! } == ["d", "c"])
    }

    @Test func errorDetailsStandsForBothOfItsHalvesAndOlderShimsSkipContexts() {
        #expect(Feature.expanded([.errorDetails]) == [.errorDetails, .errorValues, .conflictObjects])
        #expect(Feature.expanded([.errorValues]) == [.errorValues])
        #expect(Feature.introduced(after: 3).contains(.contexts))
        #expect(Feature.introduced(after: 4).isEmpty)
    }

    /// A store that lists only `contexts` and `child-contexts` still runs the rest of the suite:
    /// the scenarios with a second context are skipped, never failed.
    @Test func aSingleContextStoreSkipsOnlyTheContextScenarios() async throws {
        let scenarios = try Fixtures.allScenarios().filter { ["contexts", "child", "tracking"].contains($0.area) }
        let adapter = ClosureStoreAdapter(name: "one-context", unsupportedFeatures: [.contexts, .childContexts]) {
            try ReferenceStore($0)
        }
        let results = await ConformanceRunner().run(scenarios, adapter: adapter)
        for result in results {
            let scenario = scenarios.first { $0.id == result.scenarioID }!
            let needsContexts = !scenario.features.isDisjoint(with: [.contexts, .childContexts])
            switch result.verdict {
            case .skip: #expect(needsContexts, "\(result.scenarioID)")
            case .pass: #expect(!needsContexts, "\(result.scenarioID)")
            default: Issue.record("\(result.scenarioID): \(result.verdict)")
            }
        }
        #expect(results.contains { if case .pass = $0.verdict { true } else { false } })
    }
}

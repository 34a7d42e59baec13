/// The scenarios a run takes: those matching any filter (all when there is none), less those
/// matching an exclusion. Filters and exclusions are scenario ids or globs
/// (`ExpectedFailures.glob`).
public struct ScenarioSelection {
    public let scenarios: [Scenario]
    /// Filters were given and no scenario matches any of them.
    public let matchesNoFilter: Bool
    /// The exclusions that match none of the filtered scenarios, to be noted.
    public let unmatchedExclusions: [String]

    public init(_ all: [Scenario], filters: [String], exclusions: [String]) {
        var scenarios = all
        if !filters.isEmpty {
            scenarios = scenarios.filter { scenario in filters.contains { ExpectedFailures.glob($0, matches: scenario.id) } }
        }
        matchesNoFilter = !filters.isEmpty && scenarios.isEmpty
        unmatchedExclusions = exclusions.filter { exclusion in
            !scenarios.contains { ExpectedFailures.glob(exclusion, matches: $0.id) }
        }
        scenarios.removeAll { scenario in exclusions.contains { ExpectedFailures.glob($0, matches: scenario.id) } }
        self.scenarios = scenarios
    }
}

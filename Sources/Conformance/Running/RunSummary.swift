/// The results of one adapter's run, judged against its expected-failures list (contract §8).
public struct RunSummary: Sendable {
    /// A result as the run's exit status sees it.
    public enum Outcome: String, Sendable, CaseIterable {
        case pass
        case fail
        /// Failed, and listed as expected to.
        case expectedFailure = "expected-failure"
        /// Passed, but listed as expected to fail.
        case unexpectedPass = "unexpected-pass"
        case skip
    }

    public var adapterName: String
    public var results: [ScenarioResult]
    public var expectedFailures: ExpectedFailures

    public init(adapterName: String, results: [ScenarioResult], expectedFailures: ExpectedFailures = .none) {
        self.adapterName = adapterName
        self.results = results
        self.expectedFailures = expectedFailures
    }

    public func outcome(of result: ScenarioResult) -> Outcome {
        let listed = expectedFailures.contains(result.scenarioID)
        switch result.verdict {
        case .pass: return listed ? .unexpectedPass : .pass
        case .fail: return listed ? .expectedFailure : .fail
        case .skip: return .skip
        }
    }

    public func count(of outcome: Outcome) -> Int {
        results.reduce(0) { $0 + (self.outcome(of: $1) == outcome ? 1 : 0) }
    }

    /// True when nothing failed unexpectedly and nothing passed unexpectedly.
    public var isSuccessful: Bool {
        !results.contains { [.fail, .unexpectedPass].contains(outcome(of: $0)) }
    }

    /// One line: how many scenarios ran and how each ended.
    public var summaryLine: String {
        var parts = ["\(count(of: .pass)) passed", "\(count(of: .fail)) failed"]
        if count(of: .expectedFailure) > 0 { parts.append("\(count(of: .expectedFailure)) expected to fail") }
        if count(of: .unexpectedPass) > 0 { parts.append("\(count(of: .unexpectedPass)) passed unexpectedly") }
        if count(of: .skip) > 0 { parts.append("\(count(of: .skip)) skipped") }
        let total = results.count
        return "\(adapterName): \(total) scenario\(total == 1 ? "" : "s"): " + parts.joined(separator: ", ")
    }
}

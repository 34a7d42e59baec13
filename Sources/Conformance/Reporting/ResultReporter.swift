/// Turns run summaries into text in one format. Reporters are pure functions: the same
/// summaries give the same text.
public protocol ResultReporter: Sendable {
    /// The `--reporter` name.
    static var name: String { get }
    static func report(_ summaries: [RunSummary]) -> String
}

/// The reporters by `--reporter` name.
public enum ResultReporters {
    public static let all: [any ResultReporter.Type] = [TextReporter.self, JSONReporter.self, JUnitReporter.self]

    public static func named(_ name: String) -> (any ResultReporter.Type)? {
        all.first { $0.name == name }
    }
}

extension RunSummary {
    /// The failure message of a result, or nil.
    func message(of result: ScenarioResult) -> String? {
        switch result.verdict {
        case .fail(let message, _): message
        case .skip(let features): "needs " + features.map { "'\($0.rawValue)'" }.joined(separator: ", ")
            + ", which the adapter does not support"
        case .pass: outcome(of: result) == .unexpectedPass
            ? "passed, but \(expectedFailures.file.isEmpty ? "the expected-failures list" : expectedFailures.file) "
                + "lists it as expected to fail; remove it from the list"
            : nil
        }
    }
}

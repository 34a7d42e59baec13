import DataModel
import Foundation

/// Machine-readable results, with a `schemaVersion` so consumers can tell formats apart.
///
/// `{"schemaVersion": 1, "runs": [{"adapter", "successful", "counts": {outcome: n},
/// "results": [{"id", "outcome", "file", "line"?, "message"?, "seconds"}]}]}`
public enum JSONReporter: ResultReporter {
    public static let name = "json"
    public static let schemaVersion = 1

    struct Document: Encodable {
        var schemaVersion: Int
        var runs: [Run]
    }

    struct Run: Encodable {
        var adapter: String
        var successful: Bool
        var counts: [String: Int]
        var results: [Result]
    }

    struct Result: Encodable {
        var id: String
        var outcome: String
        var file: String
        var line: Int?
        var message: String?
        var seconds: Double
    }

    public static func report(_ summaries: [RunSummary]) -> String {
        let document = Document(schemaVersion: schemaVersion, runs: summaries.map { summary in
            Run(adapter: summary.adapterName, successful: summary.isSuccessful,
                counts: Dictionary(uniqueKeysWithValues: RunSummary.Outcome.allCases.map { ($0.rawValue, summary.count(of: $0)) }),
                results: summary.results.map { result in
                    var line: Int?
                    if case .fail(_, let failingLine) = result.verdict { line = failingLine }
                    return Result(id: result.scenarioID, outcome: summary.outcome(of: result).rawValue,
                                  file: result.file, line: line, message: summary.message(of: result),
                                  seconds: (result.seconds * 1000).rounded() / 1000)
                })
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document) else { return "{}\n" }
        return PrintableText.terminalSafeJSON(Array(data)) + "\n"
    }
}

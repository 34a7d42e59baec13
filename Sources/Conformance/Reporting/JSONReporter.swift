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
        // JSONEncoder escapes only C0 controls; the other characters a terminal or viewer acts on
        // (DEL, C1, line separators, bidirectional controls) become `\uXXXX` too. Outside strings
        // JSON holds none of them, so rewriting the whole text is exact.
        var text = ""
        for scalar in String(decoding: data, as: UTF8.self).unicodeScalars {
            if scalar.value >= 0x20 && PrintableText.needsEscape(scalar) {
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            } else {
                text.unicodeScalars.append(scalar)
            }
        }
        return text + "\n"
    }
}

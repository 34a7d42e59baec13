import DataModel
import Foundation

/// JUnit XML, which CI systems display: one `<testsuite>` per adapter, one `<testcase>` per
/// scenario. `classname` is `conformance.ADAPTER.AREA`, which Jenkins (splitting at the last dot) shows as
/// package and class, and which keeps a scenario's cases distinct across adapters; `name` is the
/// scenario id. Expected failures are passing cases with a `<system-out>` note; failures and
/// unexpected passes are `<failure>`s typed `fail` or `unexpected-pass`. The attributes are those
/// Jenkins' strict JUnit schema accepts (no `testcase/@file`), so the scenario file, relative to
/// the working directory, is the failure's text. `<testsuites>` carries the totals.
public enum JUnitReporter: ResultReporter {
    public static let name = "junit"

    public static func report(_ summaries: [RunSummary]) -> String {
        report(summaries, workingDirectory: FileManager.default.currentDirectoryPath)
    }

    public static func report(_ summaries: [RunSummary], workingDirectory: String) -> String {
        var suites = ""
        var totalTests = 0, totalFailures = 0, totalSeconds = 0.0
        for summary in summaries {
            let failures = summary.count(of: .fail) + summary.count(of: .unexpectedPass)
            let seconds = summary.results.reduce(0) { $0 + $1.seconds }
            totalTests += summary.results.count
            totalFailures += failures
            totalSeconds += seconds
            suites += "  <testsuite name=\"conformance.\(escape(summary.adapterName))\" tests=\"\(summary.results.count)\" "
                + "failures=\"\(failures)\" errors=\"0\" skipped=\"\(summary.count(of: .skip))\" time=\"\(format3(seconds))\">\n"
            for result in summary.results {
                let area = String(result.scenarioID.prefix { $0 != "." })
                let classname = "conformance.\(classSegment(summary.adapterName)).\(area)"
                suites += "    <testcase classname=\"\(escape(classname))\" "
                    + "name=\"\(escape(result.scenarioID))\" time=\"\(format3(result.seconds))\""
                let message = summary.message(of: result).map(escape) ?? ""
                let place = escape(relative(result.failurePlace, to: workingDirectory))
                let outcome = summary.outcome(of: result)
                switch outcome {
                case .pass:
                    suites += "/>\n"
                case .fail, .unexpectedPass:
                    suites += ">\n      <failure type=\"\(outcome.rawValue)\" message=\"\(message)\">\(place)</failure>\n    </testcase>\n"
                case .expectedFailure:
                    suites += ">\n      <system-out>expected failure: \(message)</system-out>\n    </testcase>\n"
                case .skip:
                    suites += ">\n      <skipped message=\"\(message)\"/>\n    </testcase>\n"
                }
            }
            suites += "  </testsuite>\n"
        }
        return #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
            + "<testsuites name=\"momlint conformance\" tests=\"\(totalTests)\" failures=\"\(totalFailures)\" "
            + "errors=\"0\" time=\"\(format3(totalSeconds))\">\n"
            + suites + "</testsuites>\n"
    }

    /// `path` relative to `folder` when it lies inside it (as CI shows paths from the
    /// repository root); otherwise unchanged.
    static func relative(_ path: String, to folder: String) -> String {
        guard path.hasPrefix("/") else { return path }
        let root = URL(fileURLWithPath: folder).standardizedFileURL.path
        let prefix = root.hasSuffix("/") ? root : root + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// An adapter name as one segment of a dotted class name: letters, digits, '-' and '_'.
    static func classSegment(_ name: String) -> String {
        String(name.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") ? $0 : "_" })
    }

    private static func format3(_ seconds: Double) -> String {
        let millis = Int((seconds * 1000).rounded())
        let fraction = String(millis % 1000)
        return "\(millis / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }

    static func escape(_ text: String) -> String { XMLText.escaped(text) }
}

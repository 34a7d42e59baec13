/// JUnit XML, which CI systems display: one `<testsuite>` per adapter, one `<testcase>` per
/// scenario. The class name is `conformance.<adapter>.<area>`, so CI tools that group by class
/// (and key test cases by class and name) keep each adapter's results apart. Expected failures are reported as passing test
/// cases with a `<system-out>` note, unexpected passes as failures.
public enum JUnitReporter: ResultReporter {
    public static let name = "junit"

    public static func report(_ summaries: [RunSummary]) -> String {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<testsuites>\n"
        for summary in summaries {
            let failures = summary.count(of: .fail) + summary.count(of: .unexpectedPass)
            xml += "  <testsuite name=\"conformance.\(escape(summary.adapterName))\" tests=\"\(summary.results.count)\" "
                + "failures=\"\(failures)\" errors=\"0\" skipped=\"\(summary.count(of: .skip))\">\n"
            for result in summary.results {
                let area = String(result.scenarioID.prefix { $0 != "." })
                let classname = "conformance.\(classSegment(summary.adapterName)).\(area)"
                xml += "    <testcase classname=\"\(escape(classname))\" name=\"\(escape(result.scenarioID))\" "
                    + "file=\"\(escape(result.file))\" time=\"\(format3(result.seconds))\""
                let message = summary.message(of: result).map(escape) ?? ""
                switch summary.outcome(of: result) {
                case .pass:
                    xml += "/>\n"
                case .fail, .unexpectedPass:
                    xml += ">\n      <failure message=\"\(message)\">\(escape(result.failurePlace))</failure>\n    </testcase>\n"
                case .expectedFailure:
                    xml += ">\n      <system-out>expected failure: \(message)</system-out>\n    </testcase>\n"
                case .skip:
                    xml += ">\n      <skipped message=\"\(message)\"/>\n    </testcase>\n"
                }
            }
            xml += "  </testsuite>\n"
        }
        return xml + "</testsuites>\n"
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

    static func escape(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default:
                // XML 1.0 cannot hold most control characters, even escaped.
                if let scalar = character.unicodeScalars.first, scalar.value < 0x20, !"\n\t\r".contains(character) {
                    escaped += "?"
                } else {
                    escaped.append(character)
                }
            }
        }
        return escaped
    }
}

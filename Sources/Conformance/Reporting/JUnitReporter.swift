import DataModel

/// JUnit XML, which CI systems display: one `<testsuite>` per adapter, one `<testcase>` per
/// scenario (class name: the scenario's area). Expected failures are reported as passing test
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
                xml += "    <testcase classname=\"\(escape(area))\" name=\"\(escape(result.scenarioID))\" "
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
                for scalar in character.unicodeScalars {
                    if scalar.value < 0x20 && !"\n\t\r".unicodeScalars.contains(scalar) {
                        // XML 1.0 cannot hold most control characters, even escaped.
                        escaped += "?"
                    } else if scalar.value >= 0x20 && PrintableText.needsEscape(scalar) {
                        // DEL, C1 and bidirectional controls: kept, as references a viewer cannot act on.
                        escaped += "&#x\(String(scalar.value, radix: 16, uppercase: true));"
                    } else {
                        escaped.unicodeScalars.append(scalar)
                    }
                }
            }
        }
        return escaped
    }
}

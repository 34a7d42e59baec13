import DataModel

/// The `momlint conformance` command line that reproduces a run, for the matrix's header and
/// the "regenerate it with" message of `--check-report`.
///
/// It repeats every option that changes the matrix — adapters, scenario folder, allowed model
/// folders, expected-failure lists, filters and exclusions, a time limit other than the default — so that
/// running it writes the matrix the check compared against (and, with `--allow-models-under`,
/// can load the scenarios at all). Each argument is quoted for a POSIX shell (`shellQuoted`).
public struct ConformanceCommandLine: Sendable {
    public var adapters: [String]
    public var scenarioDirectory: String?
    public var allowedModelRoots: [String]
    public var expectedFailureFiles: [String]
    public var filters: [String]
    /// `--exclude` globs.
    public var exclusions: [String]
    /// Seconds per scenario; left out when it is the runner's default.
    public var timeLimit: Double

    public init(adapters: [String], scenarioDirectory: String? = nil, allowedModelRoots: [String] = [],
                expectedFailureFiles: [String] = [], filters: [String] = [], exclusions: [String] = [],
                timeLimit: Double = ConformanceCommandLine.defaultTimeLimit) {
        self.adapters = adapters
        self.scenarioDirectory = scenarioDirectory
        self.allowedModelRoots = allowedModelRoots
        self.expectedFailureFiles = expectedFailureFiles
        self.filters = filters
        self.exclusions = exclusions
        self.timeLimit = timeLimit
    }

    /// `--time-limit`'s default, in seconds.
    public static let defaultTimeLimit: Double = 10

    /// The command that writes the matrix to `report`.
    public func writingReport(to report: String) -> String {
        var arguments = ["momlint", "conformance"]
        for adapter in adapters { arguments += ["--adapter", adapter] }
        if let scenarioDirectory { arguments += ["--scenarios", scenarioDirectory] }
        for root in allowedModelRoots { arguments += ["--allow-models-under", root] }
        for file in expectedFailureFiles { arguments += ["--expected-failures", file] }
        for filter in filters { arguments += ["--filter", filter] }
        for exclusion in exclusions { arguments += ["--exclude", exclusion] }
        if timeLimit != Self.defaultTimeLimit {
            arguments += ["--time-limit", timeLimit == timeLimit.rounded() && abs(timeLimit) < 1e15
                ? String(Int64(timeLimit)) : String(timeLimit)]
        }
        arguments += ["--write-report", report]
        return arguments.map(Self.shellQuoted).joined(separator: " ")
    }

    /// `text` as a POSIX shell reads it back as one word: bare when it holds only safe
    /// characters, else in single quotes; with a control, line-separator or bidirectional
    /// character (`PrintableText`), in bash's `$'…'` with that character escaped, so the command
    /// stays on one line and reads as what it is.
    public static func shellQuoted(_ text: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./:=+,@%")
        if !text.isEmpty && text.allSatisfy({ safe.contains($0) }) { return text }
        guard text.unicodeScalars.contains(where: PrintableText.needsEscape) else {
            return "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var quoted = "$'"
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": quoted += "\\\\"
            case "'": quoted += "\\'"
            case "\n": quoted += "\\n"
            case "\t": quoted += "\\t"
            case "\r": quoted += "\\r"
            case _ where PrintableText.needsEscape(scalar):
                let hex = String(scalar.value, radix: 16, uppercase: true)
                quoted += scalar.value < 0x80
                    ? "\\x" + String(repeating: "0", count: 2 - hex.count) + hex
                    : "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "'"
    }
}

/// What happened when one scenario ran against one adapter (contract §8).
public struct ScenarioResult: Hashable, Sendable {
    public enum Verdict: Hashable, Sendable {
        case pass
        /// `message` says what differed; `line` is the failing step's line in the scenario file.
        case fail(message: String, line: Int?)
        /// The adapter does not support these features.
        case skip(missingFeatures: [Feature])
    }

    public var scenarioID: String
    public var adapterName: String
    public var verdict: Verdict
    /// The scenario file, for reports that link to it.
    public var file: String
    /// Wall-clock seconds the scenario took; reports that must be reproducible leave it out.
    public var seconds: Double

    public init(scenarioID: String, adapterName: String, verdict: Verdict, file: String, seconds: Double) {
        self.scenarioID = scenarioID
        self.adapterName = adapterName
        self.verdict = verdict
        self.file = file
        self.seconds = seconds
    }

    public var passed: Bool { verdict == .pass }

    public var failed: Bool {
        if case .fail = verdict { return true }
        return false
    }

    /// `file:line` of the failing step, or the file.
    public var failurePlace: String {
        if case .fail(_, let line?) = verdict { return "\(file):\(line)" }
        return file
    }
}

/// Why a step failed: what the scenario expected and what the store did.
struct StepFailure: Error {
    var message: String
}

import Conformance
import Foundation

/// A started shim that has answered the handshake, and the conversation with it: one request
/// line out, one answer line back, ids checked, within the time limit.
///
/// Any breach of the protocol (no answer in time, an exit, a line that is not JSON, a wrong id
/// or message) stops the process for good and throws a `.storeFailure` that says what happened
/// and ends with what the shim wrote on stderr. Used by one thread at a time: the pool hands it
/// to one store, which gives it back when its scenario closes.
final class ShimConnection: @unchecked Sendable {
    let command: String
    let timeLimit: Duration
    /// What the shim said in the handshake.
    private(set) var shimName: String?
    private(set) var unsupportedFeatures: Set<Feature> = []
    private(set) var isBroken = false
    private let process: ShimProcess
    private var nextID = 1

    /// Starts the shim and performs the handshake.
    init(command: String, timeLimit: Duration) throws(StoreAdapterError) {
        self.command = command
        self.timeLimit = timeLimit
        do {
            process = try ShimProcess(command: command)
        } catch {
            throw StoreAdapterError(.storeFailure, "cannot start the shim '\(command)': \(error.message)")
        }
        try handshake()
    }

    /// The least time a shim has to start and answer the handshake, however short the request
    /// limit: starting an interpreter on a loaded machine can take seconds. The runner's default
    /// scenario limit, so a slow start is not mistaken for a hang.
    static let minimumStartTimeLimit: Duration = .seconds(10)

    private func handshake() throws(StoreAdapterError) {
        let answer = try exchange("hello", expecting: ["hello"], within: max(timeLimit, Self.minimumStartTimeLimit)) { id in
            try ShimMessage.line(id: id, key: "hello", body: ShimMessage.Hello())
        }
        let hello: ShimMessage.HelloAnswer
        do {
            hello = try JSONDecoder().decode(ShimMessage.HelloEnvelope.self, from: answer.data).hello
        } catch {
            throw broken("answered the handshake with \(ShimMessage.quoted(answer.line)); expected "
                + #"{"id":1,"hello":{"contractMajorVersion":1,"name":"…","unsupportedFeatures":[…]}}"#, waitForExit: false)
        }
        guard hello.contractMajorVersion == AdapterContract.majorVersion else {
            throw broken("implements contract version \(hello.contractMajorVersion).x, but this momlint runs "
                + "contract \(AdapterContract.version); update the shim to major version \(AdapterContract.majorVersion) "
                + "(docs/adapter-contract.md)", waitForExit: false)
        }
        var features: Set<Feature> = []
        for name in hello.unsupportedFeatures ?? [] {
            guard let feature = Feature(rawValue: name) else {
                throw broken("lists unknown feature '\(name)' as unsupported; known features: "
                    + Feature.allCases.map(\.rawValue).joined(separator: ", "), waitForExit: false)
            }
            features.insert(feature)
        }
        // A shim that names no minor version, or an older one, was written before the features
        // later minor versions added: they are skipped for it rather than failed.
        features.formUnion(Feature.introduced(after: hello.contractMinorVersion ?? 3))
        shimName = hello.name
        unsupportedFeatures = features
    }

    /// Sends the message `makeLine(id)` builds and returns the shim's answer, which must carry
    /// the same id and one of the `expected` message keys (or `error`).
    func exchange(_ label: String, expecting expected: Set<String>, within limit: Duration? = nil,
                  _ makeLine: (Int) throws -> String) throws(StoreAdapterError) -> ShimMessage.Answer {
        let limit = limit ?? timeLimit
        guard !isBroken else {
            throw StoreAdapterError(.storeFailure, "the shim '\(command)' was stopped after an earlier failure")
        }
        let id = nextID
        nextID += 1
        let request = "request \(id) (\(label))"
        let line: String
        do {
            line = try makeLine(id)
        } catch {
            throw StoreAdapterError(.invalidRequest, "cannot write \(request) as JSON: \(error)")
        }
        guard process.writeLine(line, before: .now + limit) else {
            // A shim that has exited closes its stdin and its stdout; which of the two this
            // process notices first is a race. Describe a shim that is gone by its stdout either
            // way, so the same failure always reads the same.
            do {
                _ = try process.readLine(before: .now + .seconds(1))
            } catch .closed {
                throw broken("closed its stdout before answering \(request)", waitForExit: true)
            } catch {}
            throw broken(process.inputIsClosed ? "closed its stdin (it reads no more requests) before \(request)"
                                               : "stopped reading its stdin before \(request)", waitForExit: true)
        }
        let answerLine: String
        do {
            answerLine = try process.readLine(before: .now + limit)
        } catch {
            switch error {
            case .timedOut:
                // A shim that closed its stdin reads no more requests: say so, not only "late".
                let closedInput = process.inputIsClosed ? "closed its stdin and " : ""
                throw broken("\(closedInput)did not answer \(request) within \(Self.describe(limit))", waitForExit: false)
            case .closed:
                throw broken("closed its stdout before answering \(request)", waitForExit: true)
            case .lineTooLong:
                throw broken("wrote more than \(ShimProcess.maximumLineBytes >> 20) MB without a newline in answer "
                    + "to \(request)", waitForExit: false)
            }
        }
        let answer: ShimMessage.Answer
        do {
            answer = try ShimMessage.answer(from: answerLine)
        } catch {
            throw broken("\(error.message) in answer to \(request); write only protocol lines on stdout "
                + "(logs belong on stderr)", waitForExit: false)
        }
        guard answer.id == id else {
            throw broken("answered \(request) with id \(answer.id); answer each request once, in order, "
                + "echoing its id", waitForExit: false)
        }
        guard expected.contains(answer.kind) || answer.kind == "error" else {
            throw broken("answered \(request) with \"\(answer.kind)\"; expected "
                + (expected.sorted() + ["error"]).map { "\"\($0)\"" }.joined(separator: " or "), waitForExit: false)
        }
        return answer
    }

    /// Ends a healthy shim: closes its stdin and gives it a moment to exit.
    func finish() {
        isBroken = true
        process.finish(grace: .milliseconds(500))
    }

    /// Marks the shim unusable, stops it, and describes the failure with how the shim ended and
    /// the end of its stderr. `waitForExit` when the shim is expected to be exiting anyway (its
    /// pipes closed), so the message can say its exit status.
    func broken(_ what: String, waitForExit: Bool) -> StoreAdapterError {
        isBroken = true
        // A moment even when no exit is expected: a shim that printed garbage and exited should
        // be reported as exited, with its status, not as stopped.
        let ending = process.exitStatus(waitingUpTo: waitForExit ? .seconds(1) : .milliseconds(250))
        // Read stderr before stopping: stopping closes the pipe, and a shim that failed before
        // anything was read from it (a command that does not exist) said why only there.
        let tail = process.standardErrorTail()
        let cause = process.standardErrorCause()
        process.stop()
        var message = "the shim '\(command)' \(what); it " + (ending ?? "was stopped")
        // The cause may lie before the kept tail (a crash followed by pages of backtrace).
        if let cause, !tail.contains(cause) {
            message += ". It reported: \(cause)"
        }
        if tail.isEmpty {
            message += ", and wrote nothing on stderr"
        } else {
            message += ". Its stderr ended with:\n" + tail.split(separator: "\n", omittingEmptySubsequences: false)
                .map { TextReporter.quotedLinePrefix + $0 }.joined(separator: "\n")
        }
        return StoreAdapterError(.storeFailure, message)
    }

    static func describe(_ duration: Duration) -> String {
        let seconds = duration / .seconds(1)
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

import Conformance
import CProcessControl
import DataModel
import Foundation
import ModelExport

/// A store written in any language, run as a child process (a *shim*) that speaks the
/// line-delimited JSON protocol of `docs/implementers.md` on its stdin and stdout.
///
/// `momlint conformance --adapter exec:COMMAND` builds one with `connect(command:)`. COMMAND is
/// run by `/bin/sh -c` in the current directory, so it may hold arguments, quotes and
/// environment variables as in a shell (`exec:python3 Examples/python-store/store.py`).
///
/// A shim is started once and reused for scenario after scenario while it follows the protocol.
/// When it crashes, hangs past `requestTimeLimit`, prints something that is not a protocol line,
/// or answers with the wrong id, the scenario in progress fails with a message that says so and
/// quotes the end of the shim's stderr; the shim is stopped (with everything it started) and the
/// next scenario gets a fresh one.
public struct ProcessStoreAdapter: StoreAdapter {
    /// How long a shim may take to answer one request, the handshake and `open` included, when
    /// nothing else is said: well under the runner's 10 s per scenario, so a hang is reported as
    /// the shim's, with its stderr.
    public static let defaultRequestTimeLimit: Duration = .seconds(5)

    /// The shell command that starts the shim.
    public let command: String
    public let requestTimeLimit: Duration
    public let unsupportedFeatures: Set<Feature>
    private let pool: ShimPool

    /// What reports call the store: the `name` the shim gave in its handshake, or `exec:` and
    /// the command when it gave none.
    public let name: String

    /// An adapter for `command` that does not ask the shim anything until the first scenario;
    /// `unsupportedFeatures` is taken as given. Prefer `connect`, which asks the shim.
    public init(command: String, name: String? = nil, requestTimeLimit: Duration = defaultRequestTimeLimit,
                unsupportedFeatures: Set<Feature> = []) {
        self.command = command
        self.name = Self.displayName(name, command: command)
        self.requestTimeLimit = requestTimeLimit
        self.unsupportedFeatures = unsupportedFeatures
        self.pool = ShimPool(command: command, timeLimit: requestTimeLimit)
    }

    /// Starts the shim once and performs the handshake, so that a shim that cannot start, or
    /// speaks another contract version, is reported before any scenario runs; the features the
    /// shim says it does not support are skipped. The shim is kept for the first scenario.
    public static func connect(command: String,
                               requestTimeLimit: Duration = defaultRequestTimeLimit) throws(StoreAdapterError) -> ProcessStoreAdapter {
        let first = try ShimConnection(command: command, timeLimit: requestTimeLimit)
        let adapter = ProcessStoreAdapter(command: command, name: first.shimName, requestTimeLimit: requestTimeLimit,
                                          unsupportedFeatures: first.unsupportedFeatures)
        adapter.pool.checkIn(first)
        return adapter
    }

    /// For a command line tool before its first shim starts: on Linux, descendants whose parent
    /// exits are re-parented to this process (a child subreaper), so `stopEveryShim` can still
    /// find them. False where the system offers no such thing.
    @discardableResult
    public static func adoptOrphanedDescendants() -> Bool {
        momlint_become_child_subreaper() == 0
    }

    /// For a command line tool while shims run: on SIGINT, SIGTERM or SIGHUP, stop every shim
    /// and everything it started (as `stopEveryShim` does), say so on stderr and exit with
    /// 128 + the signal's number. Shims run in process groups of their own, so a terminal's
    /// Ctrl-C reaches only this process; without this they would outlive it. False when the
    /// handlers cannot be installed. A library sharing its process should not call it.
    @discardableResult
    public static func stopEveryShimWhenSignalled() -> Bool {
        TerminationSignals.installed
    }

    /// Ends every shim this process started and everything they started, including shims of
    /// scenario threads the runner abandoned at their time limit; then, on Linux, every other
    /// descendant of this process. For a command line tool at the end of its run (a library
    /// that shares its process with other child processes should not call it). docs/security.md
    /// ("Hostile environments") says what remains out of reach.
    public static func stopEveryShim() {
        ShimRegistry.stopEverything()
    }

    /// The shim's own name when it is printable on one line, else `exec:COMMAND`.
    static func displayName(_ shimName: String?, command: String) -> String {
        guard let shimName, !shimName.isEmpty, shimName.count <= 100,
              shimName.unicodeScalars.allSatisfy({ !CharacterSet.controlCharacters.contains($0) }),
              shimName.trimmingCharacters(in: .whitespaces) == shimName else {
            return "exec:" + command
        }
        return shimName
    }

    public func openStore(_ setup: StoreSetup) throws -> any ConformanceStore {
        let exported: Data
        do {
            exported = try ModelExporter().export(setup.model).model.jsonData(pretty: false)
        } catch let error as ModelExportError {
            throw StoreAdapterError(.invalidRequest, "the scenario's model cannot be exported for the shim:\n\(error)")
        }
        let connection: ShimConnection
        let answer: ShimMessage.Answer
        do {
            connection = try pool.checkOut()
            answer = try connection.exchange("open '\(setup.scenarioID)'", expecting: ["done"]) { id in
                try ShimMessage.openLine(id: id, scenario: setup.scenarioID, modelPath: setup.modelPath,
                                         exportedModel: exported)
            }
        } catch {
            if !error.message.hasPrefix("not run: ") { pool.recordOpen(failure: error.message) }
            throw error
        }
        pool.recordOpen(failure: nil)
        if answer.kind == "error" {
            let error = ProcessStore.storeError(from: answer, connection: connection)
            pool.checkIn(connection)
            throw error
        }
        return ProcessStore(connection: connection, model: setup.model, pool: pool,
                            requestTimeLimit: setup.timeLimit.map { max($0, requestTimeLimit) })
    }
}

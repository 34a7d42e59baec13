import Conformance
import Foundation

/// The shims of one adapter that finished a scenario cleanly and wait for the next: a shim is
/// started once and reused while it behaves, and a new one is started when none is idle (the
/// runner may run scenarios on several threads) or the last one broke the protocol.
final class ShimPool: @unchecked Sendable {
    let command: String
    let timeLimit: Duration
    // Guarded by `lock`.
    private var idle: [ShimConnection] = []
    private var failedOpens = 0
    private var hasOpened = false
    private var givenUp: String?
    private let lock = NSLock()

    /// Scenarios whose `open` a shim may fail in a row, never having opened a store, before the
    /// rest are not run: a shim that answers its handshake and nothing after once made a run of
    /// every scenario wait out each one's time limit (over ten minutes), silently.
    static let failedOpensBeforeGivingUp = 3

    init(command: String, timeLimit: Duration) {
        self.command = command
        self.timeLimit = timeLimit
    }

    deinit {
        for connection in idle { connection.finish() }
    }

    /// An idle shim, or a newly started one that has passed the handshake.
    func checkOut() throws(StoreAdapterError) -> ShimConnection {
        lock.lock()
        if let givenUp {
            lock.unlock()
            throw StoreAdapterError(.storeFailure, givenUp)
        }
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        return try ShimConnection(command: command, timeLimit: timeLimit)
    }

    /// Records how an `open` went: after `failedOpensBeforeGivingUp` protocol failures in a row,
    /// with no store ever opened, every later scenario fails at once with one clear message.
    func recordOpen(failure: String?) {
        lock.lock()
        defer { lock.unlock() }
        guard let failure else {
            hasOpened = true
            failedOpens = 0
            return
        }
        failedOpens += 1
        if !hasOpened, failedOpens >= Self.failedOpensBeforeGivingUp, givenUp == nil {
            let first = failure.split(separator: "\n").first.map(String.init) ?? failure
            givenUp = "not run: the shim '\(command)' failed to open a store in each of the first \(failedOpens) scenarios, "
                + "so no other scenario was run; the last failure: \(first)"
        }
    }

    /// Takes back a shim whose store closed cleanly; a broken one is dropped (it is stopped).
    func checkIn(_ connection: ShimConnection) {
        guard !connection.isBroken else { return }
        lock.withLock { idle.append(connection) }
    }
}

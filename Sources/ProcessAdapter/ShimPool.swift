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
    private let lock = NSLock()

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
        let reused = idle.popLast()
        lock.unlock()
        if let reused { return reused }
        return try ShimConnection(command: command, timeLimit: timeLimit)
    }

    /// Takes back a shim whose store closed cleanly; a broken one is dropped (it is stopped).
    func checkIn(_ connection: ShimConnection) {
        guard !connection.isBroken else { return }
        lock.lock()
        idle.append(connection)
        lock.unlock()
    }
}

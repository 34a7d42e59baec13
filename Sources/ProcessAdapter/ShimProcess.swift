#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import SafeFiles

/// One running shim: a child process started with `/bin/sh -c COMMAND` in a process group of its
/// own, its stdin, stdout and stderr connected to this process.
///
/// Written on POSIX calls rather than Foundation's `Process` for the guarantees the runner
/// needs: a read that gives up at a deadline (`poll`); a write to a shim that died that fails
/// instead of killing momlint with SIGPIPE (written with no-SIGPIPE); descriptors that no other
/// child process inherits (created close-on-exec, so a shim's exit is seen at once even while
/// other shims start); and a stop that ends the shell *and* everything it started (`kill` of the
/// whole process group). The three standard streams are Unix socket pairs, which, unlike pipes,
/// Swift can create close-on-exec in one call on Linux; a shim uses them as it would pipes.
final class ShimProcess {
    /// Why reading an answer did not give a line.
    enum ReadFailure: Error {
        /// Nothing (or no complete line) arrived before the deadline.
        case timedOut
        /// The shim closed its stdout: it exited or crashed.
        case closed
        /// The shim wrote more than `maximumLineBytes` without a newline.
        case lineTooLong
    }

    /// The longest answer line accepted; a shim printing without end must not exhaust memory.
    static let maximumLineBytes = 16 << 20
    /// How much of the shim's stderr is kept for failure messages: its last bytes.
    static let keptErrorBytes = 8 << 10

    let pid: pid_t
    private var input: Int32
    private var output: Int32
    private var errors: Int32
    private var pending: [UInt8] = []
    private var errorTail: [UInt8] = []
    /// The line of stderr that says why the shim died, however long ago it was written.
    private var errorDiagnosis = StderrDiagnosis()
    private var exitDescription: String?

    /// Starts `command` with `/bin/sh -c`, in the current directory and environment.
    init(command: String) throws(ShimStartError) {
        var stdinPair: [Int32] = [-1, -1]
        var stdoutPair: [Int32] = [-1, -1]
        var stderrPair: [Int32] = [-1, -1]
        // Every descriptor is close-on-exec from birth: a process another thread starts
        // meanwhile (another scenario's shim) must not inherit this shim's stdout, or its exit
        // would go unseen until that process ends. The child's copies on 0, 1 and 2 are made by
        // dup2, which clears the flag.
        guard Self.makeSocketPair(&stdinPair), Self.makeSocketPair(&stdoutPair), Self.makeSocketPair(&stderrPair) else {
            let reason = String(cString: strerror(errno))
            for fd in stdinPair + stdoutPair + stderrPair where fd >= 0 { close(fd) }
            throw ShimStartError(message: "cannot create pipes for the shim: \(reason)")
        }
        Self.disableSIGPIPE(stdinPair[0])

        // A process group of its own (pgid = pid), so that stopping the shim stops whatever the
        // shell started too.
        let spawned = ChildProcess.spawn(
            "/bin/sh", arguments: ["/bin/sh", "-c", command], environment: ChildProcess.inheritedEnvironment(),
            standardInput: stdinPair[1], standardOutput: stdoutPair[1], standardError: stderrPair[1],
            closing: stdinPair + stdoutPair + stderrPair, inOwnProcessGroup: true)
        for fd in [stdinPair[1], stdoutPair[1], stderrPair[1]] { close(fd) }
        switch spawned {
        case .success(let child):
            pid = child
        case .failure(let failure):
            for fd in [stdinPair[0], stdoutPair[0], stderrPair[0]] { close(fd) }
            throw ShimStartError(message: "cannot start /bin/sh: \(String(cString: strerror(failure.code)))")
        }
        input = stdinPair[0]
        output = stdoutPair[0]
        errors = stderrPair[0]
        // Writes wait in poll, with a deadline, instead of blocking on a shim that stopped reading.
        _ = fcntl(input, F_SETFL, fcntl(input, F_GETFL) | O_NONBLOCK)
        ShimRegistry.shared.started(pid)
    }

    deinit {
        stop()
    }

    // MARK: Talking

    /// Writes one line (a newline is added). False when the shim no longer reads its stdin: it
    /// closed it, or it has not taken the line by `deadline` (a shim that stopped reading fills
    /// the socket's buffer, and a blocking write would wait for ever).
    func writeLine(_ line: String, before deadline: ContinuousClock.Instant) -> Bool {
        guard input >= 0 else { return false }
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { Self.writeWithoutSIGPIPE(input, $0.baseAddress!, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                guard errno == EAGAIN || errno == EWOULDBLOCK else { return false }
                let remaining = deadline - ContinuousClock.now
                guard remaining > .zero else { return false }
                var ready = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
                _ = poll(&ready, 1, Self.milliseconds(remaining))
                continue
            }
            written += count
        }
        return true
    }

    /// True when the shim has closed its end of stdin (the socket reports a hang-up or an
    /// error to a writer).
    var inputIsClosed: Bool {
        guard input >= 0 else { return true }
        var ready = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
        guard poll(&ready, 1, 0) > 0 else { return false }
        return ready.revents & Int16(POLLHUP | POLLERR) != 0
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// The next line the shim writes on stdout, without its newline, waiting at most until
    /// `deadline` (a `ContinuousClock` instant). Stderr is collected meanwhile.
    func readLine(before deadline: ContinuousClock.Instant) throws(ReadFailure) -> String {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard pending.count <= Self.maximumLineBytes else { throw .lineTooLong }
            guard output >= 0 else { throw .closed }
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { throw .timedOut }
            let milliseconds = Self.milliseconds(remaining)
            var fds = [pollfd(fd: output, events: Int16(POLLIN), revents: 0)]
            if errors >= 0 { fds.append(pollfd(fd: errors, events: Int16(POLLIN), revents: 0)) }
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 && errno != EINTR { throw .closed }
            if fds.count > 1 && fds[1].revents != 0 { drainErrors() }
            if fds[0].revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 65536)
                let count = buffer.withUnsafeMutableBytes { read(output, $0.baseAddress, $0.count) }
                if count > 0 {
                    pending.append(contentsOf: buffer[..<count])
                } else if count == 0 || errno != EINTR && errno != EAGAIN {
                    close(output)
                    output = -1
                }
            }
        }
    }

    /// Reads what the shim wrote on stderr so far, keeping the last `keptErrorBytes`.
    private func drainErrors() {
        guard errors >= 0 else { return }
        var buffer = [UInt8](repeating: 0, count: 16384)
        var fds = [pollfd(fd: errors, events: Int16(POLLIN), revents: 0)]
        // Bounded, so a shim that floods stderr cannot keep a read from reaching its deadline.
        for _ in 0..<64 where poll(&fds, 1, 0) > 0 {
            let count = buffer.withUnsafeMutableBytes { read(errors, $0.baseAddress, $0.count) }
            guard count > 0 else {
                if count < 0 && errno == EINTR { continue }
                close(errors)
                errors = -1
                return
            }
            errorTail.append(contentsOf: buffer[..<count])
            errorDiagnosis.feed(buffer[..<count])
            if errorTail.count > Self.keptErrorBytes { errorTail.removeFirst(errorTail.count - Self.keptErrorBytes) }
        }
    }

    /// The line of stderr that looks like the cause of a crash (a Swift `Fatal error:`, a Python
    /// traceback's last line, a Java exception), when there is one.
    func standardErrorCause() -> String? {
        drainErrors()
        return errorDiagnosis.cause
    }

    /// The last lines the shim wrote on stderr, at most `limit` characters, for a failure message.
    func standardErrorTail(limit: Int = 1500) -> String {
        drainErrors()
        var text = String(decoding: errorTail, as: UTF8.self)
        while text.hasSuffix("\n") { text.removeLast() }
        guard text.count > limit else { return text }
        return "…" + text.suffix(limit)
    }

    // MARK: Ending

    /// Closes the shim's stdin (its cue to exit), waits up to `grace` for it to exit, then
    /// stops it and whatever it left running. Used when the shim is healthy and no longer needed.
    func finish(grace: Duration) {
        guard input >= 0 else { return }
        close(input)
        input = -1
        let deadline = ContinuousClock.now + grace
        // Waits for the exit without reaping it: while the shell is an unreaped zombie its pid,
        // and so its process group's id, cannot be reused, and `stop` can still kill the group.
        while ContinuousClock.now < deadline && Self.state(of: pid) == .running {
            usleep(5_000)
        }
        stop()
    }

    /// Kills the shim and everything it started — its process group, and on Linux every process
    /// whose parent chain leads to it (which catches children that left the group with `setsid`
    /// while their parent lives) — then reaps it. Safe to call twice.
    func stop() {
        // Once reaped, the family was killed just before (see `reap`).
        if exitDescription == nil {
            ShimRegistry.killFamily(of: pid)
            _ = reap(waiting: true)
        }
        for fd in [input, output, errors] where fd >= 0 { close(fd) }
        input = -1
        output = -1
        errors = -1
    }

    /// How the shim ended (`exited with status 3`, `was killed by signal 11`), once it has:
    /// looks at least once, and waits up to `grace` for the exit to be reported.
    func exitStatus(waitingUpTo grace: Duration) -> String? {
        let deadline = ContinuousClock.now + grace
        while !reap(waiting: false) && ContinuousClock.now < deadline {
            usleep(5_000)
        }
        return exitDescription
    }

    private enum ChildState { case running, exited, notOurChild }

    /// Whether the child `pid` runs or has exited, without reaping it (`waitid` with WNOWAIT).
    private static func state(of pid: pid_t) -> ChildState {
        var info = siginfo_t()
        guard waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG | WNOWAIT) == 0 else { return .notOurChild }
        return exitedPID(info) == 0 ? .running : .exited
    }

    /// True once the child has been reaped; records how it ended. A shim found exited has its
    /// family killed *before* it is reaped: while it is an unreaped zombie its pid, and so its
    /// group's id, cannot be reused, so nothing else can be hit.
    @discardableResult
    private func reap(waiting: Bool) -> Bool {
        guard exitDescription == nil else { return true }
        if !waiting {
            switch Self.state(of: pid) {
            case .running: return false
            case .exited: ShimRegistry.killFamily(of: pid)
            case .notOurChild: break  // reaped elsewhere: waitpid below records that it ended
            }
        }
        var status: Int32 = 0
        let result = waitpid(pid, &status, waiting ? 0 : WNOHANG)
        guard result == pid else {
            if result < 0 && errno != EINTR {
                exitDescription = "ended"
                ShimRegistry.shared.reaped(pid)
            }
            return exitDescription != nil
        }
        ShimRegistry.shared.reaped(pid)
        // WIFEXITED / WEXITSTATUS / WTERMSIG are C macros Swift does not import.
        let signal = status & 0x7F
        exitDescription = signal == 0 ? "exited with status \((status >> 8) & 0xFF)" : "was killed by signal \(signal)"
        return true
    }

    // MARK: Platform differences

    #if canImport(Darwin)
    /// Darwin has no `SOCK_CLOEXEC`: the flag is set right after creation, and the launcher
    /// keeps every other descriptor out of the child (`ChildProcess`).
    private static func makeSocketPair(_ pair: inout [Int32]) -> Bool {
        guard socketpair(AF_UNIX, SOCK_STREAM, 0, &pair) == 0 else { return false }
        pair.forEach { _ = fcntl($0, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private static func exitedPID(_ info: siginfo_t) -> pid_t { info.si_pid }

    /// Darwin has no MSG_NOSIGNAL; the socket option does the same.
    private static func disableSIGPIPE(_ fd: Int32) {
        var on: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    private static func writeWithoutSIGPIPE(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        Darwin.write(fd, bytes, count)
    }
    #else
    /// The pair is made close-on-exec in the same call (`SOCK_CLOEXEC`), so no other child
    /// process started meanwhile can inherit it.
    private static func makeSocketPair(_ pair: inout [Int32]) -> Bool {
        socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0
    }

    private static func exitedPID(_ info: siginfo_t) -> pid_t { info._sifields._sigchld.si_pid }

    /// Linux: each write says MSG_NOSIGNAL instead.
    private static func disableSIGPIPE(_ fd: Int32) {}

    private static func writeWithoutSIGPIPE(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    }
    #endif
}

/// The shim could not be started at all.
struct ShimStartError: Error {
    var message: String
}

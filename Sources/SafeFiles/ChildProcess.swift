#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a program with `posix_spawn`: the one launcher behind git (`GitProcess`) and the
/// conformance suite's shims (`ShimProcess`). Not Foundation's `Process`, whose wait on Linux
/// wakes every 50 ms and which cannot put a child in a process group of its own.
///
/// Every child starts with no signal blocked and every signal at its default action
/// (`POSIX_SPAWN_SETSIGMASK`, `POSIX_SPAWN_SETSIGDEF`). Without them it would inherit the mask
/// of the thread that spawns it — a dispatch worker blocks SIGHUP, SIGINT, SIGTERM, SIGALRM,
/// SIGCHLD and more — so `kill PID` would not stop it and `signal.alarm` would never fire in a
/// Python shim; and it would inherit the signals this process ignores, which exec keeps
/// (POSIX: "Signals set to be ignored by the calling process image shall be set to be ignored
/// by the new process image").
public enum ChildProcess {
    /// `posix_spawn`'s error number, when the program could not be started (`ENOENT`: not found).
    public struct SpawnFailure: Error {
        public var code: Int32
    }

    /// Starts `program` with `arguments` (the first is the program's name as it sees it) and
    /// `environment` ("NAME=value" strings; `inheritedEnvironment()` for this process's), its
    /// standard input, output and error on the descriptors given (duplicated there, so the
    /// child keeps them although they are close-on-exec), closing `closing` in the child. With
    /// `searchingPath`, `program` is looked up on this process's PATH as a shell would
    /// (`posix_spawnp`). With `inOwnProcessGroup`, the child leads a process group of its own
    /// (pgid = its pid), so that `kill(-pid, …)` stops whatever it starts too.
    public static func spawn(_ program: String, arguments: [String],
                             environment: [UnsafeMutablePointer<CChar>?], searchingPath: Bool = false,
                             standardInput: Int32, standardOutput: Int32, standardError: Int32,
                             closing: [Int32] = [], inOwnProcessGroup: Bool) -> Result<pid_t, SpawnFailure> {
        var actions = makeFileActions()
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_adddup2(&actions, standardError, 2)
        for descriptor in closing { posix_spawn_file_actions_addclose(&actions, descriptor) }

        var attributes = makeSpawnAttributes()
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        var flags = Int16(POSIX_SPAWN_SETSIGMASK) | Int16(POSIX_SPAWN_SETSIGDEF) | extraSpawnFlags
        if inOwnProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int16(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, flags)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let envp = environment + [nil]
        var child: pid_t = 0
        let status = searchingPath
            ? posix_spawnp(&child, program, &actions, &attributes, argv, envp)
            : posix_spawn(&child, program, &actions, &attributes, argv, envp)
        return status == 0 ? .success(child) : .failure(SpawnFailure(code: status))
    }

    /// A pipe whose two ends are closed on exec, so that no child process inherits them but
    /// through `spawn`'s duplicates (`pipe2` would do it in one call, but Darwin has none); nil
    /// when it cannot be made.
    public static func makePipe() -> (read: Int32, write: Int32)? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        guard ends.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 }) else {
            ends.forEach { close($0) }
            return nil
        }
        return (ends[0], ends[1])
    }

    /// This process's environment as `spawn` takes it, less the variable `prefix` (e.g.
    /// "NAME=") names, if any. The strings are the process's own, not copies: read straight
    /// from `environ` rather than through `ProcessInfo.environment`, whose dictionary of the
    /// whole environment was a tenth of a small versioned bundle's run before git could start
    /// (docs/benchmarks.md, "Waiting for git").
    public static func inheritedEnvironment(without prefix: String? = nil) -> [UnsafeMutablePointer<CChar>?] {
        #if canImport(Darwin)
        guard var variable = _NSGetEnviron()?.pointee else { return [] }
        #else
        var variable = environ
        #endif
        return (prefix ?? "").withCString { prefixBytes in
            let length = prefix == nil ? 0 : strlen(prefixBytes)
            var inherited: [UnsafeMutablePointer<CChar>?] = []
            while let entry = variable.pointee {
                if length == 0 || strncmp(entry, prefixBytes, length) != 0 { inherited.append(entry) }
                variable += 1
            }
            return inherited
        }
    }

    #if canImport(Darwin)
    private static func makeFileActions() -> posix_spawn_file_actions_t? {
        var actions: posix_spawn_file_actions_t?
        posix_spawn_file_actions_init(&actions)
        return actions
    }

    private static func makeSpawnAttributes() -> posix_spawnattr_t? {
        var attributes: posix_spawnattr_t?
        posix_spawnattr_init(&attributes)
        return attributes
    }

    /// Darwin cannot create a pipe or socket close-on-exec in one call, so another thread's
    /// child could inherit one made a moment before: every descriptor but the three given is
    /// closed in the child.
    private static let extraSpawnFlags = Int16(POSIX_SPAWN_CLOEXEC_DEFAULT)
    #else
    private static func makeFileActions() -> posix_spawn_file_actions_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        return actions
    }

    private static func makeSpawnAttributes() -> posix_spawnattr_t {
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        return attributes
    }

    private static let extraSpawnFlags: Int16 = 0
    #endif
}

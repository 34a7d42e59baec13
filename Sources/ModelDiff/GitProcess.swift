#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Runs git once and collects its standard output, with `posix_spawnp`, a pipe and `waitpid`.
///
/// Not Foundation's `Process`: on Linux its `waitUntilExit()` wakes every 50 ms to look at the
/// child (swift-corelibs-foundation runs the run loop in 0.05 s steps), so each git call cost
/// about 50 ms of waiting; a `momlint lint` of a small versioned bundle took 70 ms instead of 20.
enum GitProcess {
    /// The most standard input `run` takes: a quarter of Linux's pipe buffer, written whole
    /// before git starts reading.
    static let maximumInputBytes = 16_384

    /// Git's standard output, or nil when git cannot be started (not installed) or exits with a
    /// non-zero status. `input`, when given, is its standard input, written whole into the pipe
    /// before git starts, so it must fit in a pipe's buffer (64 KiB on Linux; callers pass a few
    /// object names). Standard error goes to /dev/null. `GIT_OPTIONAL_LOCKS=0`: reading must not
    /// take the index lock a pre-commit hook's own git process may hold.
    static func run(_ arguments: [String], in folder: String, input: [UInt8]? = nil) -> [UInt8]? {
        start(arguments, in: folder, input: input)?.finish()
    }

    /// Starts git as `run` does and returns at once; `Running.finish()` collects the output. Git
    /// runs meanwhile, until its output fills the pipe (64 KiB on Linux), where it waits for
    /// `finish()`. Nil when git cannot be started.
    static func start(_ arguments: [String], in folder: String, input: [UInt8]? = nil) -> Running? {
        guard input.map({ $0.count <= maximumInputBytes }) ?? true else { return nil }
        var inputPipe: [Int32] = [-1, -1]
        var outputPipe: [Int32] = [-1, -1]
        guard makePipe(&inputPipe) else { return nil }
        defer { closeIfOpen(inputPipe) }
        guard makePipe(&outputPipe) else { return nil }

        if let input, !input.isEmpty {
            let written = input.withUnsafeBytes { write(inputPipe[1], $0.baseAddress, $0.count) }
            guard written == input.count else {
                closeIfOpen(outputPipe)
                return nil
            }
        }
        close(inputPipe[1])
        inputPipe[1] = -1

        guard let child = spawn(["git", "-C", folder] + arguments, standardInput: inputPipe[0],
                                standardOutput: outputPipe[1])
        else {
            closeIfOpen(outputPipe)
            return nil
        }
        // The child holds its own copy; ours must be closed for `finish` to see the end.
        close(outputPipe[1])
        return Running(child: child, output: outputPipe[0])
    }

    /// A git process started by `start`, and the read end of its standard output.
    final class Running: @unchecked Sendable {
        private let child: pid_t
        private var output: Int32
        private var result: [UInt8]??

        fileprivate init(child: pid_t, output: Int32) {
            self.child = child
            self.output = output
        }

        /// Git's standard output once it has exited, or nil when reading failed or git exited
        /// with a non-zero status. Waits for git the first time; later calls repeat the answer.
        func finish() -> [UInt8]? {
            if let result { return result }
            let collected = GitProcess.readToEnd(output)
            close(output)
            output = -1
            var status: Int32 = 0
            var reaped = true
            while waitpid(child, &status, 0) == -1 {
                guard errno == EINTR else {
                    reaped = false
                    break
                }
            }
            // WIFEXITED and WEXITSTATUS, which Swift does not import (they are macros).
            let exitedCleanly = reaped && (status & 0x7f) == 0 && ((status >> 8) & 0xff) == 0
            result = .some(exitedCleanly ? collected : nil)
            return exitedCleanly ? collected : nil
        }

        // A process started and never asked for: its output is not wanted, so git is stopped
        // rather than waited for (it may still be starting, which takes milliseconds), the pipe
        // is closed and the child is reaped. Git only reads here, and holds no lock to leave.
        deinit {
            if result == nil {
                kill(child, SIGTERM)
                close(output)
                var status: Int32 = 0
                while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            }
        }
    }

    private static func spawn(_ arguments: [String], standardInput: Int32, standardOutput: Int32) -> pid_t? {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        #else
        var actions = posix_spawn_file_actions_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, standardInput, 0)
        posix_spawn_file_actions_adddup2(&actions, standardOutput, 1)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)

        let argv = arguments.map { strdup($0) } + [nil]
        let optionalLocks = strdup("GIT_OPTIONAL_LOCKS=0")
        defer {
            argv.forEach { free($0) }
            free(optionalLocks)
        }
        let envp = inheritedEnvironment(without: "GIT_OPTIONAL_LOCKS=") + [optionalLocks, nil]
        var child: pid_t = 0
        // posix_spawnp looks git up on this process's PATH, as a shell would.
        let status = posix_spawnp(&child, "git", &actions, nil, argv, envp)
        return status == 0 ? child : nil
    }

    /// This process's environment as `posix_spawn` takes it, less the variable `prefix` (e.g.
    /// "NAME=") names. The strings are the process's own, not copies: read straight from
    /// `environ` rather than through `ProcessInfo.environment`, whose dictionary of the whole
    /// environment cost 0.4 M instructions on the way to starting git, a tenth of a small
    /// versioned bundle's run before git could start.
    private static func inheritedEnvironment(without prefix: String) -> [UnsafeMutablePointer<CChar>?] {
        #if canImport(Darwin)
        guard var variable = _NSGetEnviron()?.pointee else { return [] }
        #else
        var variable = environ
        #endif
        return prefix.withCString { prefix in
            let length = strlen(prefix)
            var inherited: [UnsafeMutablePointer<CChar>?] = []
            while let entry = variable.pointee {
                if strncmp(entry, prefix, length) != 0 { inherited.append(entry) }
                variable += 1
            }
            return inherited
        }
    }

    /// Everything until the end of the pipe; nil when reading fails (never part of it).
    fileprivate static func readToEnd(_ descriptor: Int32) -> [UInt8]? {
        var output: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                output.append(contentsOf: buffer[0..<count])
            } else if count == 0 {
                return output
            } else if errno != EINTR {
                return nil
            }
        }
    }

    /// A pipe whose ends are closed on exec: git gets only the ends `spawn` hands it as 0 and 1
    /// (`pipe2` would do it in one call, but Darwin has none).
    private static func makePipe(_ descriptors: inout [Int32]) -> Bool {
        guard pipe(&descriptors) == 0 else { return false }
        for descriptor in descriptors where fcntl(descriptor, F_SETFD, FD_CLOEXEC) != 0 {
            closeIfOpen(descriptors)
            descriptors = [-1, -1]
            return false
        }
        return true
    }

    private static func closeIfOpen(_ descriptors: [Int32]) {
        for descriptor in descriptors where descriptor >= 0 { close(descriptor) }
    }
}

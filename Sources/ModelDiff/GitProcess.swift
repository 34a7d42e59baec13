import DataModel
import Dispatch
import Foundation
import SafeFiles

/// Runs git once and collects its standard output, with `ChildProcess`, a pipe and `waitpid`,
/// under limits: a repository someone else made can hold a FIFO or a device where git reads a
/// file (`.git/HEAD`, `config`, `packed-refs`, `objects/info/alternates`), on which git would
/// wait forever, and a committed `contents` of gigabytes. So the repository's own files are
/// looked at first and a special one is never handed to git (`GitDirectory`), git has
/// `timeLimit` seconds and at most `maximumOutputBytes` of answer before it is killed, and a
/// failure keeps its reason in words (`Running.failure`) for the note that says why
/// `shipped_version_modified` did not run.
///
/// Not Foundation's `Process`: on Linux its `waitUntilExit()` looks at the child only at each
/// step of the run loop (swift-corelibs-foundation runs it in 0.05 s steps), so each git call
/// waited several times longer than git ran (docs/benchmarks.md, "Waiting for git").
enum GitProcess {
    /// The most standard input `start` takes: a quarter of Linux's pipe buffer, written whole
    /// before git starts reading.
    static let maximumInputBytes = 16_384

    /// Seconds git may take for one answer (reading a few blobs takes milliseconds).
    static let timeLimit = 10.0

    /// The most output collected: the model size limit (`LoadLimits.defaultMaximumFileSize`)
    /// for a committed and a staged `contents`, and a little for the headers.
    static let maximumOutputBytes = 2 * 256 * 1024 * 1024 + 65_536

    /// Git's standard output, or nil when git cannot be started (not installed) or exits with a
    /// non-zero status. Standard error goes to /dev/null. `GIT_OPTIONAL_LOCKS=0`: reading must not
    /// take the index lock a pre-commit hook's own git process may hold.
    static func run(_ arguments: [String], in folder: String) -> [UInt8]? {
        start(arguments, in: folder)?.finish()
    }

    /// Starts git as `run` does and returns at once; `Running.finish()` collects the output. Git
    /// runs meanwhile, until its output fills the pipe (64 KiB on Linux), where it waits for
    /// `finish()`. Nil when git cannot be started. `input`, when given, is its standard input,
    /// written whole into the pipe before git starts (callers pass a few object names).
    /// `objectLimit`, for `cat-file --batch`: each object's size is read from its header as the
    /// answer arrives, and one over the limit stops git before its bytes are collected.
    static func start(_ arguments: [String], in folder: String, input: [UInt8]? = nil,
                      objectLimit: BatchObjectLimit? = nil) -> Running? {
        guard input.map({ $0.count <= maximumInputBytes }) ?? true else { return nil }
        switch GitDirectory.check(from: folder) {
        case .none: return Running(failure: nil)  // not in a repository: nothing is shipped, nothing to say
        case .unsafe(let reason): return Running(failure: reason)
        case .usable: break
        }
        // Git gets only the ends `spawn` hands it as 0, 1 and 2: the pipes are close-on-exec.
        guard let inputPipe = ChildProcess.makePipe() else { return nil }
        defer { close(inputPipe.read) }
        let written = input?.withUnsafeBytes { write(inputPipe.write, $0.baseAddress, $0.count) }
        close(inputPipe.write)
        guard written == input?.count, let outputPipe = ChildProcess.makePipe() else { return nil }
        guard let errorPipe = ChildProcess.makePipe() else {
            close(outputPipe.read)
            close(outputPipe.write)
            return nil
        }

        let spawned = spawn(["git", "-C", folder] + arguments, standardInput: inputPipe.read,
                            standardOutput: outputPipe.write, standardError: errorPipe.write)
        // The child holds its own copies; ours must be closed for `finish` to see the end.
        close(outputPipe.write)
        close(errorPipe.write)
        guard case .success(let child) = spawned else {
            close(outputPipe.read)
            close(errorPipe.read)
            if case .failure(let failure) = spawned {
                return Running(failure: failure.code == ENOENT ? "git is not installed (no 'git' on PATH)"
                    : "git cannot be started: \(FileAccessError(path: "git", problem: .system(failure.code)).reason)")
            }
            return nil
        }
        return Running(child: child, output: outputPipe.read, errors: errorPipe.read, objectLimit: objectLimit)
    }

    /// A git process started by `start`, and the read ends of its standard output and error;
    /// or a process that was never started, with the reason.
    final class Running: @unchecked Sendable {
        private let child: pid_t
        private var output: Int32
        private var errors: Int32
        private var result: [UInt8]??
        private let objectLimit: BatchObjectLimit?
        /// Why `finish()` returned nil, in words; nil when it did not, or when the folder is in no
        /// repository (then there is nothing to say).
        private(set) var failure: String?

        fileprivate init(child: pid_t, output: Int32, errors: Int32, objectLimit: BatchObjectLimit?) {
            self.child = child
            self.output = output
            self.errors = errors
            self.objectLimit = objectLimit
        }

        fileprivate init(failure: String?) {
            child = -1
            output = -1
            errors = -1
            self.failure = failure
            objectLimit = nil
            result = .some(nil)
        }

        /// Git's standard output once it has exited, or nil when reading failed, git exited
        /// with a non-zero status, ran past `timeLimit` or answered more than
        /// `maximumOutputBytes` (then it is killed). Waits for git the first time; later calls
        /// repeat the answer.
        func finish() -> [UInt8]? {
            if let result { return result }
            let collected = GitProcess.collect(output: output, errors: errors, objectLimit: objectLimit)
            close(output)
            close(errors)
            output = -1
            errors = -1
            if collected.stopped != nil { kill(child, SIGKILL) }
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
            if let stopped = collected.stopped {
                failure = stopped
            } else if !exitedCleanly {
                let said = String(decoding: collected.errors, as: UTF8.self)
                    .split(whereSeparator: \.isNewline).first.map(String.init) ?? ""
                let how = (status & 0x7f) != 0 ? "was killed by signal \(status & 0x7f)" : "exited with status \((status >> 8) & 0xff)"
                failure = said.isEmpty ? "git \(how)" : "git \(how): \(PrintableText.bounded(said))"
            }
            let answer = exitedCleanly && collected.stopped == nil ? collected.output : nil
            result = .some(answer)
            return answer
        }

        // A process started and never asked for: its output is not wanted, so git is stopped
        // rather than waited for (it may still be starting, which takes milliseconds), the pipes
        // are closed and the child is reaped. Git only reads here, and holds no lock to leave.
        deinit {
            if result == nil {
                kill(child, SIGKILL)
                close(output)
                close(errors)
                var status: Int32 = 0
                while waitpid(child, &status, 0) == -1 && errno == EINTR {}
            }
        }
    }

    /// Git stays in momlint's process group (a Ctrl-C at the terminal reaches it too); its
    /// environment is momlint's with `GIT_OPTIONAL_LOCKS=0`.
    private static func spawn(_ arguments: [String], standardInput: Int32, standardOutput: Int32,
                              standardError: Int32) -> Result<pid_t, ChildProcess.SpawnFailure> {
        let optionalLocks = strdup("GIT_OPTIONAL_LOCKS=0")
        defer { free(optionalLocks) }
        // posix_spawnp looks git up on this process's PATH, as a shell would.
        return ChildProcess.spawn(
            "git", arguments: arguments,
            environment: ChildProcess.inheritedEnvironment(without: "GIT_OPTIONAL_LOCKS=") + [optionalLocks],
            searchingPath: true, standardInput: standardInput, standardOutput: standardOutput,
            standardError: standardError, inOwnProcessGroup: false)
    }

    /// Everything until both pipes end, read as it comes (`poll`), within `timeLimit` and
    /// `maximumOutputBytes`; `stopped` says why reading stopped early (git is then killed), and
    /// at most 4 KiB of standard error is kept.
    fileprivate static func collect(output: Int32, errors: Int32,
                                    objectLimit: BatchObjectLimit?) -> (output: [UInt8], errors: [UInt8], stopped: String?) {
        var objectLimit = objectLimit
        var collected: [UInt8] = []
        var said: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var open = [output, errors]
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(timeLimit * 1e9)
        while !open.isEmpty {
            let now = DispatchTime.now().uptimeNanoseconds
            guard now < deadline else {
                return (collected, said, "git did not answer within \(Int(timeLimit)) s (a repository with a FIFO, a device or a slow disk where git reads)")
            }
            var descriptors = open.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
            let ready = poll(&descriptors, nfds_t(descriptors.count), Int32(min(1_000, (deadline - now) / 1_000_000 + 1)))
            if ready < 0 {
                if errno == EINTR { continue }
                return (collected, said, "git's answer could not be read: \(String(cString: strerror(errno)))")
            }
            for descriptor in descriptors where descriptor.revents != 0 {
                let count = buffer.withUnsafeMutableBytes { read(descriptor.fd, $0.baseAddress, $0.count) }
                if count > 0 {
                    if descriptor.fd == output {
                        collected.append(contentsOf: buffer[0..<count])
                        if collected.count > maximumOutputBytes {
                            return (collected, said, "git's answer is over \(maximumOutputBytes) bytes: a committed contents larger than the model size limit")
                        }
                        if let stop = objectLimit?.stop(reading: collected) {
                            return (collected, said, stop)
                        }
                    } else if said.count < 4_096 {
                        said.append(contentsOf: buffer[0..<min(count, 4_096 - said.count)])
                    }
                } else if count == 0 || errno != EINTR {
                    open.removeAll { $0 == descriptor.fd }
                }
            }
        }
        return (collected, said, nil)
    }

    /// Reads the headers of `git cat-file --batch`'s answer as it arrives — each object is
    /// "<oid> <type> <size>\n", its bytes and "\n"; a name git does not have is a header alone
    /// (https://git-scm.com/docs/git-cat-file#_batch_output) — so that an object larger than a
    /// model may be is refused at its header, before gigabytes of it are collected.
    struct BatchObjectLimit {
        /// The largest object read: the model size limit, as for a file in the working tree.
        let maximumObjectBytes: Int
        /// Where the next header starts in the answer.
        private var nextHeader = 0

        init(maximumObjectBytes: Int) {
            self.maximumObjectBytes = maximumObjectBytes
        }

        /// Why reading stops, when the headers in `answer` so far name an object over the
        /// limit; nil while every one is within it (a header not yet whole waits for more).
        mutating func stop(reading answer: [UInt8]) -> String? {
            while nextHeader < answer.count {
                guard let lineEnd = answer[nextHeader...].firstIndex(of: UInt8(ascii: "\n")) else { return nil }
                let header = answer[nextHeader..<lineEnd].split(separator: UInt8(ascii: " "))
                nextHeader = lineEnd + 1
                guard header.count == 3, let size = Int(String(decoding: header[2], as: UTF8.self)) else { continue }
                if size > maximumObjectBytes {
                    return "a committed contents is \(size) bytes, over the model size limit of \(maximumObjectBytes) bytes; it was not read"
                }
                nextHeader += size + 1
            }
            return nil
        }
    }
}

import Foundation

/// Every shim this process started and has not reaped, and how to stop a shim's whole family.
///
/// A scenario thread that outlives its time limit is abandoned by the runner with its shim
/// still running, and a shim may leave processes behind (`exec:sleep 321 & exec python3 …`, a
/// helper it forks, a child that calls `setsid`). `stopEveryShim` ends all of them at the end of
/// a run. What can be found:
/// - the shim's process group (everything the shell started, unless it left the group);
/// - on Linux, every process whose parent chain leads to the shim or to a member of its group,
///   read from /proc (children that called `setsid`, while their parent lives);
/// - on Linux, after `ProcessStoreAdapter.adoptOrphanedDescendants`, every descendant of this process, even one whose
///   parent exited: the kernel re-parents it to us instead of init.
/// What cannot: on other systems, a child that left the group once its parent exited; and, even
/// on Linux, a descendant that re-parents itself away through a process outside our tree (for
/// instance by asking a system daemon to start it).
final class ShimRegistry: @unchecked Sendable {
    static let shared = ShimRegistry()

    // Guarded by `lock`.
    private var live: Set<pid_t> = []
    private var isStoppingForGood = false
    private let lock = NSLock()

    func started(_ pid: pid_t) {
        lock.lock()
        let refused = isStoppingForGood
        live.insert(pid)
        lock.unlock()
        // A shim spawned while momlint stops for good (a signal arrived as another thread was
        // starting one) is stopped at once rather than left behind.
        if refused { Self.killFamily(of: pid) }
    }

    /// From now on every shim is stopped as soon as it starts: for the end of the process.
    func stopForGood() {
        lock.withLock { isStoppingForGood = true }
    }

    func reaped(_ pid: pid_t) {
        lock.withLock { _ = live.remove(pid) }
    }

    var livePIDs: [pid_t] {
        lock.withLock { Array(live) }
    }

    /// Sends SIGKILL to the shim `pid`, its process group and (on Linux) every descendant.
    /// Only for a shim not yet reaped (running, or a zombie): then its pid and its group's id
    /// are still its own.
    static func killFamily(of pid: pid_t) {
        #if os(Linux)
        kill(-pid, SIGSTOP)
        for member in freezeFamily(of: pid) { kill(member, SIGKILL) }
        #endif
        kill(-pid, SIGKILL)
        kill(pid, SIGKILL)
    }

    /// Kills every shim still running with its family, then (on Linux) every other descendant
    /// of this process, and reaps those it can. For a command line tool at the end of its run:
    /// it ends every child process of this process.
    static func stopEverything() {
        for pid in shared.livePIDs { killFamily(of: pid) }
        #if os(Linux)
        let frozen = freezeFamily(of: getpid(), sparing: getpid())
        for member in frozen { kill(member, SIGKILL) }
        // Adopted orphans are our children now: reap them, so none lingers as a zombie.
        for member in frozen where !shared.livePIDs.contains(member) {
            var status: Int32 = 0
            _ = waitpid(member, &status, 0)
        }
        #endif
    }

    #if os(Linux)
    /// Stops (SIGSTOP) every process of `root`'s family but `sparing`, and returns them. Stop
    /// first, then look again: a process that forks between a scan and the kill would otherwise
    /// leave a child behind. Each round freezes what it finds; the scan ends when nothing new appears.
    private static func freezeFamily(of root: pid_t, sparing: pid_t? = nil) -> Set<pid_t> {
        var frozen: Set<pid_t> = []
        for _ in 0..<16 {
            var found = ProcessTable.read().family(of: [root]).subtracting(frozen)
            if let sparing { found.remove(sparing) }
            if found.isEmpty { break }
            for member in found { kill(member, SIGSTOP) }
            frozen.formUnion(found)
        }
        return frozen
    }
    #endif
}

#if os(Linux)
/// A snapshot of /proc: each process's parent and process group.
struct ProcessTable {
    var parent: [pid_t: pid_t] = [:]
    var group: [pid_t: pid_t] = [:]
    var zombies: Set<pid_t> = []

    static func read() -> ProcessTable {
        var table = ProcessTable()
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return table }
        for entry in entries {
            guard let pid = pid_t(entry), let stat = readStat(pid) else { continue }
            // "pid (comm) state ppid pgrp …"; comm may hold spaces and parentheses, so read after the last ')'.
            guard let close = stat.lastIndex(of: ")") else { continue }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count >= 3, let parent = pid_t(fields[1]), let group = pid_t(fields[2]) else { continue }
            table.parent[pid] = parent
            table.group[pid] = group
            if fields[0] == "Z" { table.zombies.insert(pid) }
        }
        return table
    }

    /// The live processes of `roots`' process groups, and every process whose parent chain
    /// leads to a root or to one of those (roots included when alive).
    func family(of roots: [pid_t]) -> Set<pid_t> {
        var children: [pid_t: [pid_t]] = [:]
        for (pid, parent) in parent { children[parent, default: []].append(pid) }
        let rootSet = Set(roots)
        var queue = roots + group.compactMap { rootSet.contains($0.value) ? $0.key : nil }
        var found: Set<pid_t> = []
        while let next = queue.popLast() {
            guard found.insert(next).inserted else { continue }
            queue += children[next] ?? []
        }
        return found.filter { parent[$0] != nil && !zombies.contains($0) }
    }

    /// /proc/PID/stat: a few hundred bytes the kernel writes; read with POSIX calls, since its
    /// size reads as 0.
    private static func readStat(_ pid: pid_t) -> String? {
        let descriptor = open("/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var buffer = [UInt8](repeating: 0, count: 1024)
        let count = Glibc.read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
#endif

import CAllocatorTuning
import Foundation
import Testing

/// `momlint_tune_allocator` (called first in `momlint`'s `main`) must reach glibc's `mallopt`:
/// its header guard once compiled it to nothing, and only a strace of the 10,000-entity lint
/// showed the 6,300 `mprotect` calls it exists to remove.
struct AllocatorTuningTests {
    @Test func theAllocatorIsTunedWhereItIsGlibcs() {
        #if canImport(Glibc)
        #expect(momlint_tune_allocator() == 1)
        #else
        #expect(momlint_tune_allocator() == 0)
        #endif
    }

    /// A worker thread's heap gets the huge-page advice once, and the kernel records it: the
    /// mapping holding the advised address carries the `hg` flag (`VM_HUGEPAGE`) in
    /// `/proc/self/smaps`. (Not `THPeligible`: that also needs the mapping to span an aligned
    /// 2 MiB, and in this test process the thread may share an arena whose heap was made, small,
    /// before the tuning.) Where the kernel has no transparent huge pages, the advice is
    /// refused, and only checked to be tried once.
    @Test func aWorkerThreadsHeapIsAdvisedOnceToUseHugePages() throws {
        #if canImport(Glibc)
        _ = momlint_tune_allocator()
        let calls = ThreadResults(count: 2)
        let thread = Thread {
            calls[0] = momlint_prepare_thread_heap().map { UInt(bitPattern: $0) }
            calls[1] = momlint_prepare_thread_heap().map { UInt(bitPattern: $0) }
            calls.finished.signal()
        }
        thread.start()
        calls.finished.wait()
        #expect(calls[1] == nil, "the second call on the same thread advises nothing")
        guard FileManager.default.fileExists(atPath: "/sys/kernel/mm/transparent_hugepage/enabled") else { return }
        let advised = try #require(calls[0], "the first call advises the thread's heap")
        let mapping = try #require(try Self.mapping(holding: UInt(advised)), "no mapping holds the advised address")
        let flags = mapping.first { $0.hasPrefix("VmFlags:") }?.split(separator: " ").dropFirst() ?? []
        #expect(flags.contains("hg"), "\(mapping.joined(separator: "\n"))")
        #endif
    }

    /// The lines `/proc/self/smaps` gives for the mapping holding `address`, its range first.
    private static func mapping(holding address: UInt) throws -> [Substring]? {
        // Read to the end: a file under /proc reports no size, and a read by size gets one page.
        let file = try #require(FileHandle(forReadingAtPath: "/proc/self/smaps"))
        let smaps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        var found: [Substring]?
        for line in smaps.split(separator: "\n") {
            let first = line.prefix { $0 != " " }
            if first.contains("-"), !first.hasSuffix(":") {
                if found != nil { break }
                let bounds = first.split(separator: "-").compactMap { UInt($0, radix: 16) }
                if bounds.count == 2, bounds[0] <= address, address < bounds[1] { found = [line] }
            } else {
                found?.append(line)
            }
        }
        return found
    }
}

/// Two results written by another thread, and the signal that it wrote them.
private final class ThreadResults: @unchecked Sendable {
    private var values: [UInt?]
    let finished = DispatchSemaphore(value: 0)

    init(count: Int) { values = Array(repeating: nil, count: count) }

    subscript(index: Int) -> UInt? {
        get { values[index] }
        set { values[index] = newValue }
    }
}

import Foundation

/// What one parse hands libxml2: `head`, then the document's bytes in `range`, then `tail`,
/// read front to back in pieces as libxml2 asks for them (see `ParseSession.run`).
struct ParserInput {
    private let bytes: [UInt8]
    private let head: [UInt8]
    private let range: Range<Int>
    private let tail: [UInt8]
    /// How many bytes have been handed out so far.
    private var position = 0

    init(_ bytes: [UInt8], range: Range<Int>, head: [UInt8] = [], tail: [UInt8] = []) {
        self.bytes = bytes
        self.range = range
        self.head = head
        self.tail = tail
    }

    var count: Int { head.count + range.count + tail.count }

    /// Copies the next bytes, at most `maximum`, to `buffer`; returns how many (0 at the end).
    mutating func read(into buffer: UnsafeMutableRawPointer, maximum: Int) -> Int {
        var written = 0
        var position = self.position
        /// Copies what comes next from `segment`, which starts at `start` in the input.
        func take(_ segment: UnsafeRawBufferPointer, startingAt start: Int) {
            let offset = position - start
            guard written < maximum, offset >= 0, offset < segment.count, let base = segment.baseAddress else { return }
            let length = min(segment.count - offset, maximum - written)
            (buffer + written).copyMemory(from: base + offset, byteCount: length)
            written += length
            position += length
        }
        head.withUnsafeBytes { take($0, startingAt: 0) }
        bytes.withUnsafeBytes { take(UnsafeRawBufferPointer(rebasing: $0[range]), startingAt: head.count) }
        tail.withUnsafeBytes { take($0, startingAt: head.count + range.count) }
        self.position = position
        return written
    }
}

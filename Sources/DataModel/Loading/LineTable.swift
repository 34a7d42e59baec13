import Foundation

/// Maps byte offsets to 1-based line and column (in Unicode scalars).
struct LineTable: Sendable {
    private let lineStarts: [Int]
    private let bytes: [UInt8]

    init(_ bytes: [UInt8]) {
        var starts = [0]
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // memchr looks at many bytes a step; a model has a newline every 100 bytes or so.
            var position = 0
            while position < buffer.count, let found = memchr(base + position, 0x0A, buffer.count - position) {
                position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found)) + 1
                starts.append(position)
            }
        }
        self.lineStarts = starts
        self.bytes = bytes
    }

    /// The length of the document the table was made for.
    var byteCount: Int { bytes.count }

    func position(ofByte offset: Int) -> (line: Int, column: Int) {
        var hint = 0
        return position(ofByte: offset, hint: &hint)
    }

    /// Like `position(ofByte:)`, starting from the line of the previous call: start tags come
    /// in document order, usually a line or two apart, so a few steps forward beat a binary
    /// search over hundreds of thousands of lines. `hint` is that line's index.
    func position(ofByte offset: Int, hint: inout Int) -> (line: Int, column: Int) {
        var low: Int
        if hint < lineStarts.count, lineStarts[hint] <= offset {
            low = hint
            var steps = 0
            while low + 1 < lineStarts.count, lineStarts[low + 1] <= offset, steps < 8 {
                low += 1
                steps += 1
            }
            if low + 1 < lineStarts.count, lineStarts[low + 1] <= offset { low = lineIndex(of: offset) }
        } else {
            low = lineIndex(of: offset)
        }
        hint = low
        var column = 1
        var index = lineStarts[low]
        while index < offset && index < bytes.count {
            // UTF-8 continuation bytes (10xxxxxx) do not start a new scalar.
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        return (low + 1, column)
    }

    /// The index of the line holding `offset`, by binary search.
    private func lineIndex(of offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low
    }

    /// The offset of the `<` that opens the tag whose attributes end at `offset`.
    /// Well-formed attribute values cannot hold a raw `<`, so the nearest one is it.
    func tagStart(before offset: Int) -> Int {
        var index = min(offset, bytes.count - 1)
        while index > 0 && bytes[index] != 0x3C { index -= 1 }
        return index
    }

    /// `tagStart(before:)`, searching forward from `earliest`, an offset known to be at or
    /// before the tag's `<` (the previous tag's). Walking back over a tag's attributes byte by
    /// byte cost more than parsing them; `memchr` jumps from one `<` to the next instead.
    func tagStart(before offset: Int, searchingFrom earliest: Int) -> Int {
        let last = min(offset, bytes.count - 1)
        guard earliest >= 0, earliest <= last else { return tagStart(before: offset) }
        let found: Int? = bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return nil }
            var latest: Int?
            var position = earliest
            while position <= last, let hit = memchr(base + position, 0x3C, last + 1 - position) {
                let index = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                latest = index
                position = index + 1
            }
            return latest
        }
        return found ?? tagStart(before: offset)
    }
}

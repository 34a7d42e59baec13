/// Short attribute values by their bytes, each decoded once while it keeps coming back.
///
/// A model writes a few hundred short values (`YES`, `Nullify`, `Integer 64`, `class`, names)
/// hundreds of thousands of times, and decoding each occurrence into a `String` (checking its
/// UTF-8, packing its bytes) cost more than all the rest of reading its attribute. A value of
/// at most 15 bytes is identified by two words of its bytes and its length: the table is
/// direct-mapped on a hash of them, and a value that finds another in its slot is decoded and takes the slot,
/// so a look-up costs one slot whatever the document holds. Such a value is a small string
/// (unless repairing bad UTF-8 made it longer), held inline without any reference to count, so
/// handing out the stored one is a copy of two words. The string is always what
/// `String(decoding:as:)` makes of the same bytes.
struct ShortValueTable {
    private struct Slot {
        var low: UInt64 = 0
        var high: UInt64 = 0
        /// The value's length in bytes; -1 while the slot is empty.
        var length = -1
        var value = ""
    }

    /// The longest value a small string holds inline.
    private static let maximumLength = 15
    private static let slotBits = 11
    private var slots = [Slot](repeating: Slot(), count: 1 << ShortValueTable.slotBits)

    /// The value written in `bytes`.
    mutating func value(of bytes: UnsafeBufferPointer<UInt8>) -> String {
        let length = bytes.count
        guard length <= Self.maximumLength, let base = bytes.baseAddress else {
            return String(decoding: bytes, as: UTF8.self)
        }
        let (low, high) = Self.words(of: base, count: length)
        let mixed = (low &* 0x9E37_79B9_7F4A_7C15) ^ (high &* 0xFF51_AFD7_ED55_8CCD) ^ UInt64(length)
        let index = Int(truncatingIfNeeded: (mixed &* 0xC4CE_B9FE_1A85_EC53) >> UInt64(64 - Self.slotBits))
        let slot = slots[index]
        if slot.length == length, slot.low == low, slot.high == high { return slot.value }
        let value = String(decoding: bytes, as: UTF8.self)
        slots[index] = Slot(low: low, high: high, length: length, value: value)
        return value
    }

    /// Two words that, with the count, tell apart any two runs of at most 15 bytes: the first
    /// and the last eight bytes (overlapping when fewer than sixteen), or the bytes themselves
    /// zero-padded when fewer than eight. Nothing past the run is read.
    private static func words(of base: UnsafePointer<UInt8>, count: Int) -> (low: UInt64, high: UInt64) {
        let raw = UnsafeRawPointer(base)
        if count >= 8 {
            return (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
        }
        var low: UInt64 = 0
        for offset in 0..<count { low |= UInt64(base[offset]) << UInt64(8 * offset) }
        return (low, 0)
    }
}

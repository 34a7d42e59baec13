import Foundation

/// A walk over a binary property list (`bplist00`) that refuses one too costly to decode,
/// before Foundation decodes it.
///
/// A binary property list names its objects by number, so one object can be used any number of
/// times, and an array can even hold itself: a 45 KB list whose every entry names one shared
/// array of shared strings decodes to gigabytes (Foundation copies each use), and a list that
/// holds itself never ends. This walk counts every object each time it is used, bounds the
/// nesting, and adds up the bytes of the strings and data it would decode; a list within the
/// budget is decoded as usual. The format: CoreFoundation's `CFBinaryPList.c` (its header
/// comment describes the trailer, the offset table and each object's marker byte).
/// A list that is not binary (XML) holds no shared objects: its size, bounded by the caller,
/// bounds its cost.
struct BinaryPropertyListBudget {
    struct Refusal: Error, CustomStringConvertible {
        var description: String
    }

    var objects: Int
    var depth: Int
    /// Bytes of strings and data, counted at every use.
    var bytes = 64 << 20

    func check(_ data: Data) throws(Refusal) {
        let list = [UInt8](data)
        guard list.starts(with: Array("bplist0".utf8)) else { return }
        guard list.count >= 40 else { throw Refusal(description: "a binary property list shorter than its trailer") }
        let trailer = list.count - 32
        let offsetSize = Int(list[trailer + 6])
        let referenceSize = Int(list[trailer + 7])
        let objectCount = number(list, at: trailer + 8, size: 8)
        let top = number(list, at: trailer + 16, size: 8)
        let tableOffset = number(list, at: trailer + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), objectCount > 0, objectCount < list.count,
              top < objectCount, tableOffset >= 8, tableOffset <= trailer, objectCount <= (trailer - tableOffset) / offsetSize
        else { throw Refusal(description: "a damaged binary property list (its trailer)") }
        var state = Walk(list: list, offsetSize: offsetSize, referenceSize: referenceSize, objectCount: objectCount,
                         tableOffset: tableOffset, trailer: trailer, budget: self)
        try state.visit(top, depth: 1)
    }

    private struct Walk {
        let list: [UInt8]
        let offsetSize: Int
        let referenceSize: Int
        let objectCount: Int
        let tableOffset: Int
        let trailer: Int
        let budget: BinaryPropertyListBudget
        var usedObjects = 0
        var usedBytes = 0

        mutating func visit(_ object: Int, depth: Int) throws(Refusal) {
            guard object < objectCount else { throw Refusal(description: "a damaged binary property list (object \(object) of \(objectCount))") }
            guard depth <= budget.depth else {
                throw Refusal(description: "it nests deeper than \(budget.depth) levels (or holds itself)")
            }
            usedObjects += 1
            guard usedObjects <= budget.objects else {
                throw Refusal(description: "it holds more than \(budget.objects) objects, counting each shared object every time it is used")
            }
            let offset = number(list, at: tableOffset + object * offsetSize, size: offsetSize)
            guard offset >= 8, offset < trailer else { throw Refusal(description: "a damaged binary property list (an offset)") }
            let marker = list[offset]
            let kind = marker >> 4
            switch kind {
            case 0x4, 0x5, 0x6, 0x7, 0xA, 0xB, 0xC, 0xD:
                let (count, start) = try length(at: offset)
                switch kind {
                case 0x4, 0x5, 0x7: try use(bytes: count)
                case 0x6: try use(bytes: count.multipliedReportingOverflow(by: 2).overflow ? Int.max : count * 2)
                default:
                    let references = kind == 0xD ? count.multipliedReportingOverflow(by: 2) : (partialValue: count, overflow: false)
                    guard !references.overflow, references.partialValue <= (trailer - start) / referenceSize else {
                        throw Refusal(description: "a damaged binary property list (a collection longer than the list)")
                    }
                    for index in 0..<references.partialValue {
                        try visit(number(list, at: start + index * referenceSize, size: referenceSize), depth: depth + 1)
                    }
                }
            default:
                break  // null, booleans, numbers, dates, UIDs: fixed size
            }
        }

        private mutating func use(bytes count: Int) throws(Refusal) {
            usedBytes = usedBytes.addingReportingOverflow(count).overflow ? Int.max : usedBytes + count
            guard usedBytes <= budget.bytes else {
                throw Refusal(description: "its strings and data come to more than \(budget.bytes) bytes, counting each shared one every time it is used")
            }
        }

        /// An object's element count (the low nibble, or 0xF and an integer object after the
        /// marker) and where its contents start.
        private func length(at offset: Int) throws(Refusal) -> (Int, Int) {
            let low = Int(list[offset] & 0x0F)
            guard low == 0xF else { return (low, offset + 1) }
            guard offset + 1 < trailer, list[offset + 1] >> 4 == 0x1 else {
                throw Refusal(description: "a damaged binary property list (a length)")
            }
            let size = 1 << Int(list[offset + 1] & 0x0F)
            guard size <= 8, offset + 2 + size <= trailer else { throw Refusal(description: "a damaged binary property list (a length)") }
            return (number(list, at: offset + 2, size: size), offset + 2 + size)
        }
    }
}

/// A big-endian unsigned number of `size` bytes, as the format stores offsets and counts; a
/// number too large for an `Int` reads as `Int.max`, which every check refuses.
private func number(_ bytes: [UInt8], at offset: Int, size: Int) -> Int {
    guard offset >= 0, offset + size <= bytes.count else { return Int.max }
    var value: UInt64 = 0
    for byte in bytes[offset..<(offset + size)] { value = value << 8 | UInt64(byte) }
    return value > UInt64(Int.max) ? Int.max : Int(value)
}

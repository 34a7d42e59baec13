import Foundation
import CLibXML2

/// Names by the pointer libxml2 hands out for them. SAX2 takes element and attribute
/// names from the parser's dictionary, so one name has one pointer for the whole parse:
/// each distinct name is decoded (and looked up in the grammar) once. A small open-addressing
/// table keyed by the pointer's bits avoids hashing strings for every attribute.
///
/// A look-up gives a slot, and the slot what the caller needs: the grammar code and the byte
/// count (all that an attribute of the grammar needs), the spelling only when asked. The probe
/// compares addresses alone, so no string is copied, retained or released to find a name,
/// which a model's hundreds of thousands of attributes would each pay.
struct NameTable {
    /// Where a name is kept, from `slot(of:)`.
    struct Slot {
        fileprivate let index: Int
    }

    private static let capacity = 512  // a power of two; models use well under 100 names
    /// The slot a name goes to once the table holds as many as it remembers: overwritten by
    /// each such name, which is still decoded correctly, just not remembered.
    private static let overflow = capacity
    private var pointers = [UnsafePointer<xmlChar>?](repeating: nil, count: NameTable.capacity)
    private var spellings = [String](repeating: "", count: NameTable.capacity + 1)
    private var knowns = [KnownXMLName?](repeating: nil, count: NameTable.capacity + 1)
    private var byteCounts = [Int](repeating: 0, count: NameTable.capacity + 1)
    private var count = 0

    /// The slot of the name at `pointer`, decoding it the first time it is seen.
    mutating func slot(of pointer: UnsafePointer<xmlChar>) -> Slot {
        let mask = Self.capacity - 1
        let bits = UInt(bitPattern: pointer)
        var index = Int((bits >> 4) ^ (bits >> 13)) & mask
        while let stored = pointers[index] {
            if stored == pointer { return Slot(index: index) }
            index = (index + 1) & mask
        }
        // Keep the table at most three quarters full, so probes stay short.
        if count < Self.capacity * 3 / 4 {
            pointers[index] = pointer
            count += 1
        } else {
            index = Self.overflow
        }
        let spelling = String(cString: pointer)
        spellings[index] = spelling
        knowns[index] = KnownXMLName(spelling: spelling)
        byteCounts[index] = spelling.utf8.count
        return Slot(index: index)
    }

    func spelling(at slot: Slot) -> String { spellings[slot.index] }
    func known(at slot: Slot) -> KnownXMLName? { knowns[slot.index] }
    func byteCount(at slot: Slot) -> Int { byteCounts[slot.index] }

    /// The name at `pointer` and its grammar code.
    mutating func name(at pointer: UnsafePointer<xmlChar>) -> (name: String, known: KnownXMLName?) {
        let slot = slot(of: pointer)
        return (spelling(at: slot), known(at: slot))
    }
}

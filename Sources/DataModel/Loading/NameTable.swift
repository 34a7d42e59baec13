import Foundation
import CLibXML2

/// Names by the pointer libxml2 hands out for them. SAX2 takes element and attribute
/// names from the parser's dictionary, so one name has one pointer for the whole parse:
/// each distinct name is decoded (and looked up in the grammar) once. A small open-addressing
/// table keyed by the pointer's bits avoids hashing strings for every attribute.
struct NameTable {
    private struct Slot {
        var pointer: UnsafePointer<xmlChar>
        var name: String
        var known: KnownXMLName?
    }

    private static let capacity = 512  // a power of two; models use well under 100 names
    private var slots = [Slot?](repeating: nil, count: NameTable.capacity)
    private var count = 0

    mutating func name(at pointer: UnsafePointer<xmlChar>) -> (name: String, known: KnownXMLName?) {
        let mask = Self.capacity - 1
        let bits = UInt(bitPattern: pointer)
        var index = Int((bits >> 4) ^ (bits >> 13)) & mask
        while let slot = slots[index] {
            if slot.pointer == pointer { return (slot.name, slot.known) }
            index = (index + 1) & mask
        }
        let name = String(cString: pointer)
        let known = KnownXMLName(spelling: name)
        // Keep the table at most three quarters full, so probes stay short; past that,
        // names are still decoded correctly, just not remembered.
        if count < Self.capacity * 3 / 4 {
            slots[index] = Slot(pointer: pointer, name: name, known: known)
            count += 1
        }
        return (name, known)
    }
}

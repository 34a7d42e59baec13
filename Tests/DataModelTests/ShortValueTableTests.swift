@testable import DataModel
import Testing

/// The parser's table of short attribute values always hands out what `String(decoding:as:)`
/// makes of the same bytes, whether the value was in its slot, was pushed out by another, or is
/// too long to be kept.
@Suite struct ShortValueTableTests {
    func decoded(_ bytes: [UInt8], in table: inout ShortValueTable) -> String {
        bytes.withUnsafeBufferPointer { table.value(of: $0) }
    }

    @Test func everyValueIsTheDecodedBytes() {
        var table = ShortValueTable()
        // Every length around the two words and the small-string limit, runs that differ only in
        // their last byte or only in their length (zero bytes included), non-ASCII text and bytes
        // that are not UTF-8; each asked twice, so the second answer comes from the table.
        var values: [[UInt8]] = []
        for length in 0...20 {
            let run = (0..<length).map { UInt8(97 + $0 % 26) }
            values.append(run)
            values.append(run + [0])
            if length > 0 { values.append(Array(run.dropLast()) + [90]) }
        }
        values += [Array("Caf\u{E9}".utf8), Array("\u{1F600}\u{1F600}\u{1F600}".utf8), [0xFF, 0xFE, 0x41],
                   [0xE2, 0x82], Array("Integer 64".utf8), Array("Integer 16".utf8)]
        for _ in 0..<2 {
            for bytes in values {
                #expect(decoded(bytes, in: &table) == String(decoding: bytes, as: UTF8.self), "\(bytes)")
            }
        }
    }

    @Test func manyDistinctValuesShareTheSlots() {
        // More distinct values than slots: values evict each other and are decoded again.
        var table = ShortValueTable()
        for round in 0..<2 {
            for number in 0..<10_000 {
                let value = "Entity\(number)"
                #expect(decoded(Array(value.utf8), in: &table) == value, "round \(round)")
            }
        }
    }
}

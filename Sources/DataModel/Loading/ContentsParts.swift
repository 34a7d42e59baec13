#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Where a large `contents` document can be cut so that its parts are parsed at once, one per
/// core: before an `<entity>` of the model.
///
/// libxml2 parses one document on one core, and reading a model of thousands of entities is
/// most of linting it. A model is one `<model>` element holding a long run of `<entity>`
/// elements, so the run can be cut before an entity: each part becomes a document of its own,
/// `<model>` + part + `</model>` (the first keeps the document's real start, the last its real
/// end; see `XMLEventParser.Part`).
///
/// Why the parts read as the whole does. The cuts are found by looking at bytes, not by
/// parsing, so a cut may fall where no part can start or end: inside a comment, a CDATA
/// section, or an element nested deeper than the model. Parsing is what tells: the first part
/// is well-formed with `</model>` after it only if the cut is in the content of the root
/// `<model>` itself, with nothing else open, and a later part is well-formed after `<model>` only
/// if it is a run of that content. The content of an element is a sequence, so two runs of it
/// joined are the content the whole document holds there, and each part reports the same
/// elements, attributes and positions (always counted in the whole document) as the whole
/// parse would. Every check that counts across the document (elements, entities) is summed
/// over the parts. When a part fails for any reason, or a sum passes its limit, the document
/// is read whole, and any error is reported exactly as before: a part never decides what the
/// user sees.
enum ContentsParts {
    /// A part is at least this long: below it, starting a thread costs more than it saves.
    static let minimumPartBytes = 256 * 1024

    /// How many parts a document of `byteCount` bytes is read in: one per core, each at least
    /// `minimumPartBytes`.
    static func partCount(forBytes byteCount: Int) -> Int {
        let shares = byteCount / minimumPartBytes
        guard shares > 1 else { return 1 }
        return min(ProcessInfo.processInfo.activeProcessorCount, shares)
    }

    /// Up to `parts - 1` offsets, increasing, each the `<` of an `<entity` start tag that begins a
    /// line (after indentation), as Xcode writes every entity: the first at or past each even
    /// share of the document. Fewer when the document has no such tag past a share.
    static func cuts(in bytes: [UInt8], parts: Int) -> [Int] {
        guard parts > 1 else { return [] }
        var cuts: [Int] = []
        bytes.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            for share in 1..<parts {
                let target = max(buffer.count / parts * share, (cuts.last ?? 0) + 1)
                guard let cut = entityStart(in: buffer, base: base, from: target) else { break }
                cuts.append(cut)
            }
        }
        return cuts
    }

    private static let entityTag = Array("<entity".utf8)

    /// The first `<entity` at or past `start` that begins a line and is followed by whitespace,
    /// `>` or `/` (so `<entityFoo` is not taken for one).
    private static func entityStart(in buffer: UnsafeBufferPointer<UInt8>, base: UnsafePointer<UInt8>,
                                    from start: Int) -> Int? {
        var position = start
        while position + entityTag.count < buffer.count,
              let found = memchr(base + position, Int32(UInt8(ascii: "<")), buffer.count - position) {
            let offset = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
            position = offset + 1
            guard offset + entityTag.count < buffer.count,
                  entityTag.indices.allSatisfy({ buffer[offset + $0] == entityTag[$0] }),
                  endsName(buffer[offset + entityTag.count]), beginsLine(buffer, at: offset) else { continue }
            return offset
        }
        return nil
    }

    private static func endsName(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
            || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    /// Whether only spaces and tabs stand between the line's start and `offset`.
    private static func beginsLine(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) -> Bool {
        var index = offset - 1
        while index >= 0 {
            switch buffer[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index -= 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): return true
            default: return false
            }
        }
        return false
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A linear pass over a document's bytes that finds the first start tag with more
/// attributes than allowed, before libxml2 parses anything.
///
/// Why before: libxml2 2.9 (`xmlParseStartTag2`) checks each attribute of a start tag
/// against every earlier one, and namespace declarations likewise, so a single tag with
/// 100,000 attributes (1 MB) takes minutes, and the SAX callback that could count them
/// only runs once the whole tag is parsed.
///
/// The scan understands just enough XML to count: comments, CDATA sections, processing
/// instructions and declarations are skipped; in a start tag, each `=` outside a quoted
/// value introduces one attribute. On malformed input the count may be off, which only
/// changes which error the user sees first: libxml2 still rejects the document.
enum StartTagScanner {
    struct CrowdedTag: Equatable {
        /// The byte offset of the tag's `<`.
        var offset: Int
        /// The tag's name as written (at most 64 bytes of it).
        var name: String
    }

    static func firstTag(in bytes: [UInt8], withMoreAttributesThan limit: Int) -> CrowdedTag? {
        bytes.withUnsafeBufferPointer { buffer in
            var scanner = Cursor(buffer: buffer)
            return scanner.firstTag(withMoreAttributesThan: limit)
        }
    }

    private struct Cursor {
        let buffer: UnsafeBufferPointer<UInt8>
        var index = 0

        private static let lessThan = UInt8(ascii: "<"), greaterThan = UInt8(ascii: ">")
        private static let equals = UInt8(ascii: "="), singleQuote = UInt8(ascii: "'")
        private static let doubleQuote = UInt8(ascii: "\""), bang = UInt8(ascii: "!")
        private static let question = UInt8(ascii: "?"), slash = UInt8(ascii: "/")
        /// The shortest attribute: a space, a one-letter name, `=` and two quotes.
        private static let minimumAttributeBytes = 5

        mutating func firstTag(withMoreAttributesThan limit: Int) -> CrowdedTag? {
            while let start = next(Self.lessThan) {
                index = start + 1
                guard index < buffer.count else { return nil }
                switch buffer[index] {
                case Self.bang:
                    if matches("!--") {
                        skip(past: "-->")
                    } else if matches("![CDATA[") {
                        skip(past: "]]>")
                    } else {
                        skipDeclaration()
                    }
                case Self.question:
                    skip(past: "?>")
                case Self.slash:
                    skip(past: ">")
                default:
                    // Each attribute takes at least five bytes (` a=""`), and libxml2 reads no
                    // attribute past the next raw `<` (inside a value it is an error, and the
                    // parse stops at the first error), so a tag whose next `<` comes within five
                    // bytes per allowed attribute cannot have too many: skip it unread. Nearly
                    // every tag of a model is that short.
                    let nextTag = next(Self.lessThan) ?? buffer.count
                    if nextTag - start < Self.minimumAttributeBytes * (limit + 1) {
                        index = nextTag
                        continue
                    }
                    if countAttributes(upTo: limit) > limit {
                        return CrowdedTag(offset: start, name: tagName(at: start + 1))
                    }
                }
            }
            return nil
        }

        /// Counts attributes from `index` to the end of the start tag, stopping early past `limit`.
        private mutating func countAttributes(upTo limit: Int) -> Int {
            var count = 0
            readMarkup { byte in
                switch byte {
                case Self.equals:
                    count += 1
                    return count > limit ? .stopAfter : .goOn
                case Self.greaterThan: return .stopAfter
                // `<` cannot appear in a well-formed tag; stop before it so the next tag is seen.
                case Self.lessThan: return .stopBefore
                default: return .goOn
                }
            }
            return count
        }

        /// Skips `<!DOCTYPE …>` and the declarations of an internal subset, whose `>` may
        /// sit inside quotes or brackets.
        private mutating func skipDeclaration() {
            var brackets = 0
            readMarkup { byte in
                switch byte {
                case UInt8(ascii: "["): brackets += 1
                case UInt8(ascii: "]"): brackets = max(0, brackets - 1)
                case Self.greaterThan where brackets == 0: return .stopAfter
                default: break
                }
                return .goOn
            }
        }

        private enum Step {
            case goOn, stopAfter, stopBefore
        }

        /// Reads markup from `index`, skipping quoted values; `visit` sees every byte outside
        /// quotes and says whether to go on, or to stop after or before that byte.
        private mutating func readMarkup(_ visit: (UInt8) -> Step) {
            while index < buffer.count {
                let byte = buffer[index]
                if byte == Self.doubleQuote || byte == Self.singleQuote {
                    // Attribute values are most of a model's bytes: jump to the closing quote.
                    guard let close = next(byte, from: index + 1) else {
                        index = buffer.count
                        return
                    }
                    index = close + 1
                    continue
                } else {
                    switch visit(byte) {
                    case .goOn: break
                    case .stopAfter:
                        index += 1
                        return
                    case .stopBefore:
                        return
                    }
                }
                index += 1
            }
        }

        /// The offset of the next `byte` at or after `start`; `memchr` searches many bytes a step.
        private func next(_ byte: UInt8, from start: Int? = nil) -> Int? {
            let position = start ?? index
            guard position < buffer.count, let base = buffer.baseAddress,
                  let found = memchr(base + position, Int32(byte), buffer.count - position)
            else { return nil }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }

        private func matches(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard index + count <= buffer.count else { return false }
            let pattern = UnsafeBufferPointer(start: text.utf8Start, count: count)
            for offset in 0..<count where buffer[index + offset] != pattern[offset] { return false }
            return true
        }

        private mutating func skip(past terminator: StaticString) {
            while index < buffer.count {
                if matches(terminator) {
                    index += terminator.utf8CodeUnitCount
                    return
                }
                index += 1
            }
        }

        private func tagName(at offset: Int) -> String {
            var end = offset
            while end < buffer.count && end - offset < 64 {
                let byte = buffer[end]
                if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == Self.slash
                    || byte == Self.greaterThan { break }
                end += 1
            }
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[offset..<end]), as: UTF8.self)
        }
    }
}

/// One of Core Data's 32-byte version hashes (SHA-256): an entity's `versionHash`, as a store
/// keeps it in its metadata (`NSStoreModelVersionHashes`) and a compiled model in its
/// `VersionInfo.plist`, or a property's.
///
/// Held as four little-endian 64-bit words, the form CoreStore's `VersionLock` literal writes
/// (`VersionLockLiteral`); `bytes` and `base64` give the digest's bytes in order.
public struct VersionHash: Hashable, Sendable, CustomStringConvertible {
    // Four words, not an array: a model of 10,000 entities has some 150,000 of these, and an
    // array would be an allocation each.
    private let word0, word1, word2, word3: UInt64

    /// The digest's bytes 0-7, 8-15, 16-23 and 24-31, each read as a little-endian `UInt64`.
    public var words: [UInt64] { [word0, word1, word2, word3] }

    public init(words: [UInt64]) {
        precondition(words.count == 4, "a version hash is 32 bytes")
        self.init(words[0], words[1], words[2], words[3])
    }

    init(_ word0: UInt64, _ word1: UInt64, _ word2: UInt64, _ word3: UInt64) {
        self.word0 = word0
        self.word1 = word1
        self.word2 = word2
        self.word3 = word3
    }

    /// Calls `body` with the hash's 32 bytes, in digest order (each word little-endian), in one
    /// buffer: written into a hash input with one append, not four.
    func withDigestBytes<Result>(_ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        // A tuple of four `UInt64` is laid out as four consecutive words.
        withUnsafeBytes(of: (word0.littleEndian, word1.littleEndian, word2.littleEndian, word3.littleEndian)) { body($0) }
    }

    /// Nil unless `bytes` holds exactly 32 bytes.
    public init?<Bytes: Collection>(bytes: Bytes) where Bytes.Element == UInt8 {
        guard bytes.count == 32 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (offset, byte) in bytes.enumerated() { words[offset / 8] |= UInt64(byte) << (8 * UInt64(offset % 8)) }
        self.init(words: words)
    }

    /// Nil unless `text` is the base64 of exactly 32 bytes (as Core Data's plists and
    /// `momlint export` write a hash).
    public init?(base64 text: String) {
        guard let bytes = Base64.decode(text) else { return nil }
        self.init(bytes: bytes)
    }

    /// The 32 bytes of the digest, in order.
    public var bytes: [UInt8] {
        words.flatMap { word in (0..<8).map { UInt8(truncatingIfNeeded: word >> (8 * UInt64($0))) } }
    }

    /// The bytes in base64, as a plist viewer or `NSData.base64EncodedString()` shows them.
    public var base64: String { Base64.encode(bytes) }

    /// The first 8 base64 characters: enough to tell hashes apart by eye in a table.
    public var short: String { String(base64.prefix(8)) }

    public var description: String { base64 }
}

/// The model's `NSStoreModelVersionHashesDigest`: a 64-byte SHA-512 over every entity's name and
/// hash. Two versions with equal digests are one schema to Core Data.
public struct ModelDigest: Hashable, Sendable, CustomStringConvertible {
    public let bytes: [UInt8]

    /// Nil unless `bytes` holds exactly 64 bytes.
    public init?(bytes: [UInt8]) {
        guard bytes.count == 64 else { return nil }
        self.bytes = bytes
    }

    public init?(base64 text: String) {
        guard let bytes = Base64.decode(text) else { return nil }
        self.init(bytes: bytes)
    }

    public var base64: String { Base64.encode(bytes) }

    /// The first 8 base64 characters, as `momlint versions` shows a digest.
    public var short: String { String(base64.prefix(8)) }

    public var description: String { base64 }
}

/// Standard base64 (RFC 4648 §4, with padding), by hand: Foundation's `Data(base64Encoded:)` on
/// Linux decodes malformed text ("QU=D", "====", a misplaced "="), and a lock file's hash must be
/// refused, not misread (its encoder is also slower).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let b0 = UInt32(bytes[index])
            let b1 = index + 1 < bytes.count ? UInt32(bytes[index + 1]) : 0
            let b2 = index + 2 < bytes.count ? UInt32(bytes[index + 2]) : 0
            let triple = b0 << 16 | b1 << 8 | b2
            out.append(alphabet[Int(triple >> 18 & 63)])
            out.append(alphabet[Int(triple >> 12 & 63)])
            out.append(index + 1 < bytes.count ? alphabet[Int(triple >> 6 & 63)] : UInt8(ascii: "="))
            out.append(index + 2 < bytes.count ? alphabet[Int(triple & 63)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for anything but well-formed, padded base64 (surrounding whitespace allowed).
    static func decode(_ text: String) -> [UInt8]? {
        var values: [UInt8] = []
        var padding = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): values.append(byte - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): values.append(byte - UInt8(ascii: "a") + 26)
            case UInt8(ascii: "0")...UInt8(ascii: "9"): values.append(byte - UInt8(ascii: "0") + 52)
            case UInt8(ascii: "+"): values.append(62)
            case UInt8(ascii: "/"): values.append(63)
            case UInt8(ascii: "="): padding += 1; values.append(0)
            case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"): continue
            default: return nil
            }
            if padding > 0 && byte != UInt8(ascii: "=") { return nil }
        }
        guard values.count % 4 == 0, padding <= 2 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(values.count / 4 * 3)
        var index = 0
        while index < values.count {
            let quad = UInt32(values[index]) << 18 | UInt32(values[index + 1]) << 12
                | UInt32(values[index + 2]) << 6 | UInt32(values[index + 3])
            out.append(UInt8(truncatingIfNeeded: quad >> 16))
            out.append(UInt8(truncatingIfNeeded: quad >> 8))
            out.append(UInt8(truncatingIfNeeded: quad))
            index += 4
        }
        out.removeLast(padding)
        return out
    }
}

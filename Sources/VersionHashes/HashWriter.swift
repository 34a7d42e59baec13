import Crypto

/// The bytes of one hash input, in a buffer kept between hashes so that hashing a large model
/// allocates once.
struct HashWriter {
    private var bytes: [UInt8] = []
    /// Attribute hashes already computed by this writer, by their inputs
    /// (`VersionHasher.AttributeInputs`): the same inputs always give the same hash.
    var attributeHashes: [VersionHasher.AttributeInputs: VersionHash] = [:]

    init() {
        bytes.reserveCapacity(256)
    }

    mutating func start() {
        bytes.removeAll(keepingCapacity: true)
    }

    mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    mutating func append(_ text: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: text)
    }

    /// The strings with `separator` between them, as `joined(separator:)` would make them.
    mutating func appendJoined(_ texts: [String], separator: String) {
        for (position, text) in texts.enumerated() {
            if position > 0 { append(separator) }
            append(text)
        }
    }

    mutating func append(byte: UInt8) {
        bytes.append(byte)
    }

    mutating func append(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func append(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func append(_ hash: VersionHash) {
        hash.withDigestBytes { bytes.append(contentsOf: $0) }
    }

    /// `NSPropertyDescription.versionHash`, the start of every attribute's and relationship's:
    /// SHA-256 of the name ‖ a 2-byte flag word (bit 0 optional, bit 1 transient, bit 2
    /// read-only, which `contents` files never set) ‖ the `versionHashModifier`, when set.
    mutating func propertyBaseHash(name: String, isOptional: Bool, isTransient: Bool,
                                   versionHashModifier: String?) -> VersionHash {
        // Not remembered by its inputs, as attributes are: a lookup keyed by the name cost
        // more than the SHA-256 it saved (docs/benchmarks.md, "Version hashes").
        start()
        append(name)
        append(VersionHasher.propertyFlags(isOptional, isTransient))
        if let versionHashModifier, !versionHashModifier.isEmpty { append(versionHashModifier) }
        return sha256()
    }

    func sha256() -> VersionHash {
        // `update(bufferPointer:)`, not the generic `hash(data:)`: no `DataProtocol` walk per hash.
        var hasher = SHA256()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return hasher.finalize().withUnsafeBytes { raw in
            VersionHash(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 0, as: UInt64.self)),
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 8, as: UInt64.self)),
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 16, as: UInt64.self)),
                        UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: 24, as: UInt64.self)))
        }
    }

    func sha512() -> ModelDigest? {
        var hasher = SHA512()
        bytes.withUnsafeBytes { hasher.update(bufferPointer: $0) }
        return ModelDigest(bytes: Array(hasher.finalize()))
    }
}

import DataModel
import MomlintTestSupport
import Testing
import VersionHashes

/// CoreStore's `VersionLock` literal: four little-endian `UInt64` per entity, as CoreStore's
/// own sources write them (its ColorsDemo locks 'Palette' as
/// `[0xbaf4eaee9353176a, 0xdd6ca918cc2b0c38, 0xd04fad8882d7cc34, 0x3e90ca38c091503f]`, the hash
/// Core Data computed for that model, `ahdTk+7q…` in base64).
@Suite struct CoreStoreVersionLockTests {
    @Test func wordsAreTheDigestReadLittleEndian() throws {
        let hash = try #require(VersionHash(base64: "ahdTk+7q9Lo4DCvMGKls3TTM14KIrU/QP1CRwDjKkD4="))
        #expect(hash.words == [0xbaf4eaee9353176a, 0xdd6ca918cc2b0c38, 0xd04fad8882d7cc34, 0x3e90ca38c091503f])
        #expect(CoreStoreVersionLock.hash(words: ["0xbaf4eaee9353176a", "0xdd6c_a918_cc2b_0c38", "0xd04fad8882d7cc34",
                                                  "0x3e90ca38c091503f"]) == hash)
        #expect(hash.base64 == "ahdTk+7q9Lo4DCvMGKls3TTM14KIrU/QP1CRwDjKkD4=")
        #expect(VersionHash(bytes: hash.bytes) == hash)
    }

    @Test func literalListsEntitiesInNameOrder() throws {
        let model = try Fixtures.model("""
            <entity name="Zebra"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Ant"><attribute name="legs" attributeType="Integer 16"/></entity>
            <entity name="Broken"><attribute name="x" attributeType="Money"/></entity>
            """)
        let hashes = VersionHasher.hashes(of: model)
        let literal = CoreStoreVersionLock.literal(hashes, indent: "  ")
        let lines = literal.split(separator: "\n").map(String.init)
        #expect(lines.first == "  versionLock: [")
        #expect(lines.last == "  ]")
        #expect(lines[1].hasPrefix("      \"Ant\": [0x"))
        #expect(lines[2].hasPrefix("      // \"Broken\": no hash, 'Broken.x' has attribute type 'Money'"))
        #expect(lines[3].hasPrefix("      \"Zebra\": [0x"))
        let zebra = try #require(hashes.entity(named: "Zebra")?.hash)
        #expect(lines[3] == "      \"Zebra\": [" + zebra.words.map { "0x" + String($0, radix: 16) }.joined(separator: ", ") + "],")
    }

    @Test func base64IsStrict() {
        #expect(VersionHash(base64: "not base64!") == nil)
        #expect(VersionHash(base64: "AAAA") == nil)  // 3 bytes, not 32
        #expect(ModelDigest(base64: String(repeating: "A", count: 86) + "==") != nil)
    }
}

import DataModel
import MomlintTestSupport
import Testing
import VersionHashes

/// Hashes that nobody computing the serialization looked at: CoreStore version locks found in
/// public code after the serialization was written down, with the schemas they lock
/// transcribed into `contents` XML. CoreStore compares a lock with Core Data's own
/// `entityVersionHashesByName` at run time, so each literal is Core Data's hash. The literal
/// `momlint versions --format corestore` prints must be the one in the source, word for word.
@Suite struct UnseenCoreStoreLockTests {
    /// A CoreStore app's one entity (PokemonData, 2019: `Pokemon` with `Value.Required`
    /// `name: String`, `number: Int`, `type: String`; CoreStore stores `Int` as Integer 64).
    @Test func aCoreStoreAppsLock() throws {
        let model = try Fixtures.model("""
            <entity name="Pokemon">
                <attribute name="name" attributeType="String"/>
                <attribute name="number" attributeType="Integer 64"/>
                <attribute name="type" attributeType="String"/>
            </entity>
            """)
        let literal = CoreStoreVersionLock.literal(VersionHasher.hashes(of: model))
        #expect(literal.contains(
            "\"Pokemon\": [0x66847b324e4dfba6, 0x9697d801baf94f4e, 0xdcb90630e0504805, 0xbace52c12f3cb343],"))
    }

    /// The example in CoreStore's own `VersionLock` documentation (JohnEstropia/CoreStore,
    /// Sources/VersionLock.swift): `Person` with a required `name` and a to-one `pet` whose
    /// inverse is `Animal.master`; `Animal` with a required `species` and `master`. The class
    /// printed beside the lock also has an optional `nickname`, which the lock does not count:
    /// the lock is `Animal` without it (an example edited after its lock was pasted), which is
    /// itself what a version hash is for.
    @Test func coreStoresDocumentedExample() throws {
        let animal = { (nickname: String) in
            """
            <entity name="Animal">
                \(nickname)
                <attribute name="species" attributeType="String"/>
                <relationship name="master" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pet" inverseEntity="Person"/>
            </entity>
            <entity name="Person">
                <attribute name="name" attributeType="String"/>
                <relationship name="pet" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Animal" inverseName="master" inverseEntity="Animal"/>
            </entity>
            """
        }
        let person = "\"Person\": [0xae4060a59f990ef0, 0x8ac83a6e1411c130, 0xa29fea58e2e38ab6, 0x2071bb7e33d77887],"
        let lockedAnimal = "\"Animal\": [0x2698c812ebbc3b97, 0x751e3fa3f04cf9, 0x51fd460d3babc82, 0x92b4ba735b5a3053],"
        let locked = CoreStoreVersionLock.literal(VersionHasher.hashes(of: try Fixtures.model(animal(""))))
        #expect(locked.contains(person))
        #expect(locked.contains(lockedAnimal))
        let withNickname = try Fixtures.model(animal("<attribute name=\"nickname\" optional=\"YES\" attributeType=\"String\"/>"))
        let printed = CoreStoreVersionLock.literal(VersionHasher.hashes(of: withNickname))
        #expect(printed.contains(person))
        #expect(!printed.contains(lockedAnimal))
    }
}

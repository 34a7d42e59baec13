import DataModel
import Linting
import Testing
import VersionHashes

/// `shipped_version_modified` decides by Core Data's version hashes: one finding per entity whose
/// hash changed, naming the changes; none for an edit no hash sees; the lock file's hashes
/// decide when the base gives them.
@Suite struct ShippedVersionHashTests {
    static func pair(base: String, edited: String, lockedHashes: Bool = false) throws -> MigrationPair {
        let current = try MigrationEngineTests.version("M 2", "<entity name=\"Z\"/>", current: true)
        let older = try MigrationEngineTests.version("M", edited, current: false)
        let shipped = try MigrationEngineTests.version("M", base, current: false)
        let hashes = lockedHashes ? VersionHasher.hashes(of: shipped).entityHashesByName : nil
        return MigrationPair(older: older, current: current, comparesMigration: false,
                             olderAtBase: lockedHashes ? nil : shipped, baseName: "HEAD", baseEntityHashes: hashes)
    }

    @Test func anEntityRenamedInAShippedVersionIsOneFinding() throws {
        let pair = try Self.pair(
            base: "<entity name=\"Car\"><attribute name=\"plate\" optional=\"YES\" attributeType=\"String\"/></entity>",
            edited: "<entity name=\"Auto\" elementID=\"Car\"><attribute name=\"plate\" optional=\"YES\" attributeType=\"String\"/></entity>")
        let violations = ShippedVersionModifiedRule().violations(in: pair)
        #expect(violations.map(\.entityName) == ["Auto"])
        #expect(violations.first?.message.contains("entity 'Auto' was added (entity 'Car' renamed to 'Auto')") == true)
    }

    @Test func aParentsEditIsReportedForEachEntityWhoseHashChanged() throws {
        let base = """
            <entity name="Animal" isAbstract="YES"><attribute name="name" optional="YES" attributeType="String"/></entity>
            <entity name="Dog" parentEntity="Animal"/>
            """
        let pair = try Self.pair(base: base, edited: base.replacingOccurrences(of: " optional=\"YES\"", with: ""))
        let violations = ShippedVersionModifiedRule().violations(in: pair)
        #expect(violations.map(\.entityName) == ["Animal", "Dog"])
        #expect(violations.last?.message.contains("its parent 'Animal' changed") == true)
    }

    @Test func hashNeutralEditsAreNoFinding() throws {
        let base = """
            <entity name="Task" representedClassName="Task"><attribute name="name" optional="YES" attributeType="String"/></entity>
            """
        let edited = """
            <entity name="Task" representedClassName="TaskMO" codeGenerationType="class">
                <attribute name="name" optional="YES" attributeType="String" defaultValueString="x" indexed="YES"/>
                <userInfo><entry key="k" value="v"/></userInfo>
            </entity>
            """
        #expect(ShippedVersionModifiedRule().violations(in: try Self.pair(base: base, edited: edited)).isEmpty)
        #expect(ShippedVersionModifiedRule().violations(in: try Self.pair(base: base, edited: edited, lockedHashes: true)).isEmpty)
    }

    /// A lock that keeps only hashes cannot say what changed, but says which entity and how its hash moved.
    @Test func lockedHashesDecideWithoutTheBasesText() throws {
        let pair = try Self.pair(
            base: "<entity name=\"Task\"><attribute name=\"name\" optional=\"YES\" attributeType=\"String\"/></entity>",
            edited: "<entity name=\"Task\"><attribute name=\"name\" attributeType=\"String\"/></entity>", lockedHashes: true)
        let violations = ShippedVersionModifiedRule().violations(in: pair)
        #expect(violations.count == 1)
        #expect(violations.first?.message.contains("entity 'Task' no longer hashes as shipped (hash ") == true)
    }
}

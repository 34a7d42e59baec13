import DataModel
@testable import ModelDiff
import MomlintTestSupport
import Testing
import VersionHashes

/// `SchemaChange.hashChanging` comes from the computed version hashes. Each test is a case
/// where the table momlint used before (Apple's prose read as a list of inputs) gave the other
/// answer; the computation wins, since it reproduces the hashes Core Data itself wrote.
@Suite struct HashClassificationTests {
    func diff(_ older: String, _ newer: String) throws -> SchemaDiff {
        SchemaDiff(from: try Fixtures.model(older), to: try Fixtures.model(newer))
    }

    func change(_ diff: SchemaDiff, _ aspect: SchemaChange.Aspect? = nil) throws -> SchemaChange {
        try #require(diff.changes.first { aspect == nil || $0.aspect == aspect }, "\(diff.changes.map(\.details))")
    }

    /// Table: a hash input (any added property). Computed: transient properties are in no
    /// entity's hash, so stores open as they are. Seen on the corpus (TwidereX, brave-ios).
    @Test func aTransientAttributeAddedOrRemovedChangesNoHash() throws {
        let plain = "<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>"
        let withTransient = "<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/>"
            + "<attribute name=\"busy\" optional=\"YES\" transient=\"YES\" attributeType=\"Boolean\"/></entity>"
        for diff in [try diff(plain, withTransient), try diff(withTransient, plain)] {
            #expect(try change(diff).hashChanging == false)
            #expect(try change(diff).sources.contains(.computedVersionHash))
            #expect(diff.verdict == .noMigration)
            #expect(diff.entityHashChanges.isEmpty)
        }
    }

    /// Table: a hash input (type, optionality). Computed: not while the attribute stays transient.
    @Test func aTransientAttributesTypeAndOptionalityChangeNoHash() throws {
        let diff = try diff(
            "<entity name=\"A\"><attribute name=\"t\" optional=\"YES\" transient=\"YES\" attributeType=\"String\"/></entity>",
            "<entity name=\"A\"><attribute name=\"t\" transient=\"YES\" attributeType=\"Integer 32\"/></entity>")
        #expect(diff.changes.count == 2)
        #expect(diff.changes.allSatisfy { !$0.hashChanging })
        #expect(diff.verdict == .noMigration)
    }

    /// Table: not an input (not on Apple's list as read). Computed: allowing external storage
    /// adds a byte to the attribute's hash.
    @Test func externalStorageChangesTheHash() throws {
        let diff = try diff(
            "<entity name=\"A\"><attribute name=\"photo\" optional=\"YES\" attributeType=\"Binary\"/></entity>",
            "<entity name=\"A\"><attribute name=\"photo\" optional=\"YES\" attributeType=\"Binary\" allowsExternalBinaryDataStorage=\"YES\"/></entity>")
        #expect(try change(diff, .allowsExternalBinaryDataStorage).hashChanging)
        #expect(diff.needsMigration)
    }

    /// Table: not an input. Computed: a derived attribute's hash is its derivation's.
    @Test func aDerivationChangesTheHash() throws {
        let entity = { (expression: String) in
            "<entity name=\"A\"><attribute name=\"n\" optional=\"YES\" attributeType=\"Integer 64\" derived=\"YES\" derivationExpression=\"\(expression)\"/>"
                + "<relationship name=\"items\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"B\"/>"
                + "<relationship name=\"others\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"B\"/></entity><entity name=\"B\"/>"
        }
        let diff = try diff(entity("items.@count"), entity("others.@count"))
        #expect(try change(diff, .derivation).hashChanging)
    }

    /// Table: optionality is a hash input. Computed: not for a derived attribute, whose hash is
    /// its derivation alone.
    @Test func aDerivedAttributesOptionalityChangesNoHash() throws {
        let entity = { (optional: String) in
            "<entity name=\"A\"><attribute name=\"n\"\(optional) attributeType=\"Integer 64\" derived=\"YES\" derivationExpression=\"items.@count\"/>"
                + "<relationship name=\"items\" optional=\"YES\" toMany=\"YES\" deletionRule=\"Cascade\" destinationEntity=\"B\"/></entity><entity name=\"B\"/>"
        }
        let diff = try diff(entity(" optional=\"YES\""), entity(""))
        #expect(try change(diff, .isOptional).hashChanging == false)
        #expect(diff.verdict == .noMigration)
    }

    /// Table: a count change ("0…0 → 0…1"). Computed: a to-one without maxCount has maxCount 1.
    @Test func aToOnesWrittenMaxCountChangesNoHash() throws {
        let relationship = { (count: String) in
            "<entity name=\"A\"><relationship name=\"b\" optional=\"YES\"\(count) deletionRule=\"Nullify\" destinationEntity=\"B\"/></entity><entity name=\"B\"/>"
        }
        let diff = try diff(relationship(""), relationship(" maxCount=\"1\""))
        #expect(try change(diff, .count).hashChanging == false)
        #expect(diff.verdict == .noMigration)
    }

    /// Table: not compared at all. Computed: preserve-after-deletion adds a byte to the hash.
    @Test func preserveAfterDeletionChangesTheHash() throws {
        let diff = try diff(
            "<entity name=\"A\"><attribute name=\"id\" optional=\"YES\" attributeType=\"UUID\"/></entity>",
            "<entity name=\"A\"><attribute name=\"id\" optional=\"YES\" attributeType=\"UUID\" preserveAfterDeletion=\"YES\"/></entity>")
        #expect(try change(diff, .preserveAfterDeletion).hashChanging)
        #expect(diff.needsMigration)
    }

    /// Table: no change (the destination is matched through the rename). Computed: a
    /// relationship hashes its destination's name, so every entity pointing at a renamed entity
    /// hashes differently too, and the diff says so.
    @Test func aRelationshipToARenamedEntityChangesItsEntitysHash() throws {
        let diff = try diff("""
            <entity name="Person"><relationship name="car" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="SportCar"/></entity>
            <entity name="SportCar"><attribute name="speed" optional="YES" attributeType="Double"/></entity>
            """, """
            <entity name="Person"><relationship name="car" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="LuxuryCar"/></entity>
            <entity name="LuxuryCar" elementID="SportCar"><attribute name="speed" optional="YES" attributeType="Double"/></entity>
            """)
        let person = try #require(diff.changes.first { $0.entityName == "Person" })
        #expect(person.hashChanging && person.lightweight && !person.dataLoss)
        #expect(person.details.contains("'Person.car' points to 'SportCar', now named 'LuxuryCar'"))
        #expect(Set(diff.entityHashChanges.map(\.name)) == ["Person", "LuxuryCar"])
        #expect(diff.verdict == .lightweight)
    }

    /// Where an element cannot be hashed (an attribute type Core Data does not know) the table
    /// still answers.
    @Test func anUnhashableEntityKeepsTheTable() throws {
        let diff = try diff(
            "<entity name=\"A\"><attribute name=\"m\" optional=\"YES\" attributeType=\"Money\"/></entity>",
            "<entity name=\"A\"><attribute name=\"m\" attributeType=\"Money\"/></entity>")
        let optionality = try change(diff, .isOptional)
        #expect(optionality.hashChanging)
        #expect(!optionality.sources.contains(.computedVersionHash))
    }

    /// Given hashes are used as they are (a caller comparing one version with several hashes
    /// it once), and give the same diff.
    @Test func givenHashesGiveTheSameDiff() throws {
        let older = try Fixtures.model("<entity name=\"A\"><attribute name=\"x\" optional=\"YES\" attributeType=\"String\"/></entity>")
        let newer = try Fixtures.model("<entity name=\"A\"><attribute name=\"x\" attributeType=\"String\"/></entity>")
        let given = SchemaDiff(from: older, to: newer, olderHashes: VersionHasher.hashes(of: older),
                               newerHashes: VersionHasher.hashes(of: newer))
        #expect(given.changes == SchemaDiff(from: older, to: newer).changes)
        #expect(given.entityHashChanges.count == 1)
    }
}

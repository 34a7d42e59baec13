import DataModel
import MomlintTestSupport
import Testing
import VersionHashes

/// One test per rule of the serialization (docs/version-hashes.md): every input Core Data
/// hashes changes the hash, and every field it leaves out does not. Each case edits one thing
/// in a small model and compares the edited entity's hash with the original's.
@Suite struct SerializationRuleTests {
    static let base = """
        <entity name="Book" representedClassName="Book" syncable="YES" codeGenerationType="class">
            <attribute name="title" optional="YES" attributeType="String" defaultValueString="Untitled"/>
            <attribute name="pages" attributeType="Integer 32" defaultValueString="0" usesScalarValueType="YES"/>
            <attribute name="cover" optional="YES" attributeType="Binary"/>
            <attribute name="scratch" optional="YES" transient="YES" attributeType="String"/>
            <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Author" inverseName="books" inverseEntity="Author"/>
            <fetchIndex name="byTitle"><fetchIndexElement property="title" type="Binary" order="ascending"/></fetchIndex>
            <userInfo><entry key="note" value="one"/></userInfo>
        </entity>
        <entity name="Author" representedClassName="Author" syncable="YES">
            <attribute name="name" attributeType="String"/>
            <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="author" inverseEntity="Book"/>
        </entity>
        """

    static func hashes(_ body: String) throws -> ModelVersionHashes {
        VersionHasher.hashes(of: try Fixtures.model(body))
    }

    static func hash(of entity: String, _ body: String) throws -> VersionHash {
        let hashes = try hashes(body)
        let found = try #require(hashes.entity(named: entity))
        return try #require(found.hash, "\(found.problem ?? "")")
    }

    /// `base` with `old` replaced by `new` (which must occur).
    static func edited(_ old: String, _ new: String) throws -> String {
        #expect(base.contains(old), "the base model has no \(old)")
        return base.replacingOccurrences(of: old, with: new)
    }

    struct Edit: CustomTestStringConvertible, Sendable {
        var what: String
        var entity: String
        var old: String
        var new: String
        var testDescription: String { what }
    }

    static let hashedEdits: [Edit] = [
        Edit(what: "entity name", entity: "Writer", old: "name=\"Author\" representedClassName", new: "name=\"Writer\" representedClassName"),
        Edit(what: "entity made abstract", entity: "Book", old: "name=\"Book\" representedClassName=\"Book\"", new: "name=\"Book\" representedClassName=\"Book\" isAbstract=\"YES\""),
        Edit(what: "entity versionHashModifier", entity: "Book", old: "name=\"Book\" representedClassName=\"Book\"", new: "name=\"Book\" representedClassName=\"Book\" versionHashModifier=\"2\""),
        Edit(what: "uniqueness constraint", entity: "Book", old: "<userInfo><entry key=\"note\"", new: "<uniquenessConstraints><uniquenessConstraint><constraint value=\"title\"/></uniquenessConstraint></uniquenessConstraints><userInfo><entry key=\"note\""),
        Edit(what: "attribute name", entity: "Book", old: "name=\"title\"", new: "name=\"heading\""),
        Edit(what: "attribute optionality", entity: "Book", old: "name=\"pages\" attributeType", new: "name=\"pages\" optional=\"YES\" attributeType"),
        Edit(what: "attribute made transient", entity: "Book", old: "name=\"cover\" optional=\"YES\"", new: "name=\"cover\" optional=\"YES\" transient=\"YES\""),
        Edit(what: "attribute made persistent", entity: "Book", old: "name=\"scratch\" optional=\"YES\" transient=\"YES\"", new: "name=\"scratch\" optional=\"YES\""),
        Edit(what: "attribute type", entity: "Book", old: "attributeType=\"Integer 32\"", new: "attributeType=\"Integer 64\""),
        Edit(what: "attribute versionHashModifier", entity: "Book", old: "name=\"cover\"", new: "name=\"cover\" versionHashModifier=\"v2\""),
        Edit(what: "external binary storage", entity: "Book", old: "attributeType=\"Binary\"", new: "attributeType=\"Binary\" allowsExternalBinaryDataStorage=\"YES\""),
        Edit(what: "preserve after deletion", entity: "Book", old: "name=\"cover\"", new: "name=\"cover\" preserveAfterDeletion=\"YES\""),
        Edit(what: "attribute added", entity: "Book", old: "<relationship name=\"author\"", new: "<attribute name=\"isbn\" optional=\"YES\" attributeType=\"String\"/><relationship name=\"author\""),
        Edit(what: "relationship name", entity: "Book", old: "name=\"author\" optional", new: "name=\"writer\" optional"),
        Edit(what: "relationship optionality", entity: "Book", old: "name=\"author\" optional=\"YES\"", new: "name=\"author\""),
        Edit(what: "relationship destination", entity: "Book", old: "destinationEntity=\"Author\" inverseName=\"books\"", new: "destinationEntity=\"Book\" inverseName=\"books\""),
        Edit(what: "inverse name", entity: "Book", old: "inverseName=\"books\"", new: "inverseName=\"works\""),
        Edit(what: "inverse dropped", entity: "Book", old: "inverseName=\"books\" inverseEntity=\"Author\"", new: ""),
        Edit(what: "to-one made to-many (maxCount)", entity: "Book", old: "name=\"author\" optional=\"YES\" maxCount=\"1\"", new: "name=\"author\" optional=\"YES\" toMany=\"YES\""),
        Edit(what: "maxCount", entity: "Author", old: "toMany=\"YES\" deletionRule", new: "toMany=\"YES\" maxCount=\"5\" deletionRule"),
        Edit(what: "minCount", entity: "Author", old: "toMany=\"YES\" deletionRule", new: "toMany=\"YES\" minCount=\"1\" deletionRule"),
        Edit(what: "ordered", entity: "Author", old: "toMany=\"YES\" deletionRule", new: "toMany=\"YES\" ordered=\"YES\" deletionRule"),
        Edit(what: "relationship versionHashModifier", entity: "Author", old: "name=\"books\"", new: "name=\"books\" versionHashModifier=\"x\""),
        Edit(what: "parent entity", entity: "Book", old: "name=\"Book\" representedClassName=\"Book\"", new: "name=\"Book\" representedClassName=\"Book\" parentEntity=\"Author\""),
    ]

    @Test(arguments: hashedEdits)
    func hashedInputChangesTheHash(_ edit: Edit) throws {
        let originalEntity = edit.entity == "Writer" ? "Author" : edit.entity
        let before = try Self.hash(of: originalEntity, Self.base)
        let after = try Self.hash(of: edit.entity, Self.edited(edit.old, edit.new))
        #expect(before != after, "\(edit.what) must change '\(edit.entity)''s hash")
    }

    static let unhashedEdits: [Edit] = [
        Edit(what: "default value", entity: "Book", old: "defaultValueString=\"Untitled\"", new: "defaultValueString=\"New\""),
        Edit(what: "default value removed", entity: "Book", old: "defaultValueString=\"0\" ", new: ""),
        Edit(what: "entity class", entity: "Book", old: "representedClassName=\"Book\"", new: "representedClassName=\"BookMO\""),
        Edit(what: "codegen", entity: "Book", old: "codeGenerationType=\"class\"", new: "codeGenerationType=\"category\""),
        Edit(what: "entity userInfo", entity: "Book", old: "value=\"one\"", new: "value=\"two\""),
        Edit(what: "fetch index", entity: "Book", old: "<fetchIndex name=\"byTitle\"><fetchIndexElement property=\"title\" type=\"Binary\" order=\"ascending\"/></fetchIndex>", new: ""),
        Edit(what: "attribute indexed", entity: "Book", old: "name=\"title\" optional=\"YES\"", new: "name=\"title\" optional=\"YES\" indexed=\"YES\""),
        Edit(what: "spotlight", entity: "Book", old: "name=\"title\" optional=\"YES\"", new: "name=\"title\" optional=\"YES\" spotlightIndexingEnabled=\"YES\""),
        Edit(what: "entity renaming identifier", entity: "Book", old: "name=\"Book\" representedClassName=\"Book\"", new: "name=\"Book\" representedClassName=\"Book\" elementID=\"Volume\""),
        Edit(what: "attribute renaming identifier", entity: "Book", old: "name=\"title\"", new: "name=\"title\" elementID=\"heading\""),
        Edit(what: "relationship renaming identifier", entity: "Book", old: "name=\"author\" optional", new: "name=\"author\" renamingIdentifier=\"writer\" optional"),
        Edit(what: "delete rule", entity: "Author", old: "deletionRule=\"Cascade\"", new: "deletionRule=\"Deny\""),
        Edit(what: "custom class", entity: "Book", old: "attributeType=\"Binary\"", new: "attributeType=\"Binary\" customClassName=\"Cover\""),
        Edit(what: "value transformer", entity: "Book", old: "attributeType=\"Binary\"", new: "attributeType=\"Binary\" valueTransformerName=\"CoverTransformer\""),
        Edit(what: "validation", entity: "Book", old: "attributeType=\"Integer 32\"", new: "attributeType=\"Integer 32\" minValueString=\"1\" maxValueString=\"9000\""),
        Edit(what: "scalar type", entity: "Book", old: "usesScalarValueType=\"YES\"", new: "usesScalarValueType=\"NO\""),
        Edit(what: "syncable", entity: "Book", old: "syncable=\"YES\" codeGenerationType", new: "codeGenerationType"),
        Edit(what: "transient attribute's type", entity: "Book", old: "transient=\"YES\" attributeType=\"String\"", new: "transient=\"YES\" attributeType=\"Integer 16\""),
        Edit(what: "fetched property", entity: "Book", old: "<userInfo><entry key=\"note\"", new: "<fetchedProperty name=\"related\" optional=\"YES\"><fetchRequest name=\"r\" entity=\"Book\" predicateString=\"title == $FETCH_SOURCE.title\"/></fetchedProperty><userInfo><entry key=\"note\""),
        Edit(what: "property order in the file", entity: "Book", old: "<attribute name=\"title\" optional=\"YES\" attributeType=\"String\" defaultValueString=\"Untitled\"/>\n    <attribute name=\"pages\" attributeType=\"Integer 32\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>", new: "<attribute name=\"pages\" attributeType=\"Integer 32\" defaultValueString=\"0\" usesScalarValueType=\"YES\"/>\n    <attribute name=\"title\" optional=\"YES\" attributeType=\"String\" defaultValueString=\"Untitled\"/>"),
        Edit(what: "inverse's delete rule seen from the other side", entity: "Book", old: "deletionRule=\"Cascade\"", new: "deletionRule=\"Nullify\""),
    ]

    @Test(arguments: unhashedEdits)
    func unhashedFieldLeavesTheHash(_ edit: Edit) throws {
        let before = try Self.hash(of: edit.entity, Self.base)
        let after = try Self.hash(of: edit.entity, Self.edited(edit.old, edit.new))
        #expect(before == after, "\(edit.what) must not change '\(edit.entity)''s hash")
    }

    @Test func aParentsChangeReachesItsSubentities() throws {
        let body = """
            <entity name="Animal" isAbstract="YES"><attribute name="name" attributeType="String"/></entity>
            <entity name="Dog" parentEntity="Animal"><attribute name="breed" optional="YES" attributeType="String"/></entity>
            """
        let before = try Self.hash(of: "Dog", body)
        let after = try Self.hash(of: "Dog", body.replacingOccurrences(of: "name=\"name\"", with: "name=\"nickname\""))
        #expect(before != after)
    }

    @Test func anOwnPropertyOverridesAnInheritedOneOfItsName() throws {
        // Dog redeclares 'name': its own declaration is the one hashed.
        let body = """
            <entity name="Animal"><attribute name="name" attributeType="String"/></entity>
            <entity name="Dog" parentEntity="Animal"><attribute name="name" optional="YES" attributeType="String"/></entity>
            """
        let hashes = try Self.hashes(body)
        let dog = try #require(hashes.entity(named: "Dog"))
        let other = try Self.hashes(body.replacingOccurrences(of: "name=\"name\" attributeType", with: "name=\"name\" optional=\"YES\" attributeType"))
        #expect(dog.hash != nil)
        // Making the parent's 'name' optional changes the parent's hash, so Dog's too (through
        // the parent hash), even though Dog's own 'name' wins in its row.
        #expect(other.entity(named: "Dog")?.hash != dog.hash)
        #expect(other.entity(named: "Animal")?.hash != hashes.entity(named: "Animal")?.hash)
    }

    @Test func countsAreCutTo32Bits() throws {
        let unbounded = try Self.hash(of: "Author", Self.edited("toMany=\"YES\" deletionRule", "toMany=\"YES\" maxCount=\"9223372036854775807\" deletionRule"))
        let allOnes = try Self.hash(of: "Author", Self.edited("toMany=\"YES\" deletionRule", "toMany=\"YES\" maxCount=\"4294967295\" deletionRule"))
        #expect(unbounded == allOnes)
    }

    @Test func absentCountsTakeXcodesDefaults() throws {
        // A to-one without maxCount is 1, a to-many 0, an absent minCount 0.
        let written = try Self.hash(of: "Author", Self.edited("toMany=\"YES\" deletionRule", "toMany=\"YES\" minCount=\"0\" maxCount=\"0\" deletionRule"))
        #expect(written == (try Self.hash(of: "Author", Self.base)))
        let toOne = try Self.hash(of: "Book", Self.edited("optional=\"YES\" maxCount=\"1\" deletionRule", "optional=\"YES\" deletionRule"))
        #expect(toOne == (try Self.hash(of: "Book", Self.base)))
    }

    @Test func derivedAttributesHashTheirDerivationOnly() throws {
        let body = """
            <entity name="Book"><attribute name="pagesCount" optional="YES" attributeType="Integer 64" derived="YES" derivationExpression="pages.@count"/>
            <relationship name="pages" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Page"/></entity>
            <entity name="Page"/>
            """
        let model = try Fixtures.model(body)
        let attribute = try #require(model.entity(named: "Book")?.attributes.first)
        let hashed = VersionHasher.attributeHash(attribute, in: model)
        #expect(hashed.unverified.isEmpty)
        // Renamed, made required and retyped: the same hash, the derivation's.
        var other = attribute
        other.name = "count"
        other.isOptional = false
        other.attributeType = .integer32
        #expect(VersionHasher.attributeHash(other, in: model).hash == hashed.hash)
        #expect(VersionHasher.canonicalDerivation("pages.@count") == ("count:(pages)", true))
        #expect(VersionHasher.canonicalDerivation("items.@sum").text == "sum:(items)")
        #expect(VersionHasher.canonicalDerivation("lowercase:(title)").verified == false)
    }

    @Test func transientPropertiesAreLeftOut() throws {
        let without = try Self.hash(of: "Book", Self.edited("<attribute name=\"scratch\" optional=\"YES\" transient=\"YES\" attributeType=\"String\"/>", ""))
        #expect(without == (try Self.hash(of: "Book", Self.base)))
    }

    @Test func uniquenessConstraintsAreOrderFree() throws {
        func constrained(_ constraints: String) throws -> VersionHash {
            try Self.hash(of: "Book", Self.edited("<userInfo><entry key=\"note\"", "<uniquenessConstraints>\(constraints)</uniquenessConstraints><userInfo><entry key=\"note\""))
        }
        let a = "<uniquenessConstraint><constraint value=\"title\"/></uniquenessConstraint>"
        let b = "<uniquenessConstraint><constraint value=\"pages\"/><constraint value=\"cover\"/></uniquenessConstraint>"
        #expect(try constrained(a + b) == constrained(b + a))
        #expect(try constrained(a) != constrained(b))
    }

    @Test func unverifiedRulesAreNamed() throws {
        let hashes = try Self.hashes(Self.edited("attributeType=\"Binary\"", "attributeType=\"Binary\" allowsExternalBinaryDataStorage=\"YES\""))
        #expect(hashes.entity(named: "Book")?.unverified == [.externalBinaryStorage])
        #expect(hashes.entity(named: "Author")?.unverified == [])
        let selfInverse = try Self.hashes("""
            <entity name="Person"><relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Person" inverseName="friends" inverseEntity="Person"/></entity>
            """)
        #expect(selfInverse.entity(named: "Person")?.unverified == [.selfInverseRelationship])
    }

    @Test func entitiesThatCannotBeHashedSayWhy() throws {
        let hashes = try Self.hashes("""
            <entity name="A"><attribute name="x" attributeType="Money"/></entity>
            <entity name="B" parentEntity="A"/>
            <entity name="C" parentEntity="Nowhere"/>
            <entity name="D"><attribute name="ok" attributeType="String"/></entity>
            """)
        #expect(hashes.entity(named: "A")?.hash == nil)
        #expect(hashes.entity(named: "A")?.problem?.contains("'A.x' has attribute type 'Money'") == true)
        #expect(hashes.entity(named: "B")?.problem?.hasPrefix("its parent cannot be hashed") == true)
        #expect(hashes.entity(named: "C")?.problem?.contains("'Nowhere'") == true)
        #expect(hashes.entity(named: "D")?.hash != nil)
        #expect(hashes.digest == nil)
    }

    @Test func aCycleOfParentsEnds() throws {
        let hashes = try Self.hashes("""
            <entity name="A" parentEntity="B"/>
            <entity name="B" parentEntity="A"/>
            """)
        #expect(hashes.entities.allSatisfy { $0.hash == nil && $0.problem != nil })
    }

    /// Computed by hand (Python's hashlib over the bytes the serialization describes), so the
    /// test does not only check the code against itself.
    @Test func bytesComputedIndependently() throws {
        let hashes = try Self.hashes("""
            <entity name="Note"><attribute name="text" optional="YES" attributeType="String"/></entity>
            """)
        let note = try #require(hashes.entity(named: "Note"))
        #expect(note.attributeHashes.first??.base64 == Self.independentAttributeHash)
        #expect(note.hash?.base64 == Self.independentEntityHash)
        #expect(hashes.digest?.base64 == Self.independentDigest)
    }

    static let independentAttributeHash = "K+Z9weAkIVt2pGjvCE/4sB9ddFW+jIJOLSWcn/OBQS4="
    static let independentEntityHash = "ROpD15pq0/dx8GAn+zeghZl71dGxpvNvsarSTNiNkG8="
    static let independentDigest = "CjL03KGKapGWVTwgrFh7P6YB/Nl6u542XECS9ZPfGs3am/K5Le0MEPduJMORelh68G6EavOdOvIT1/Xsw0xqsQ=="
}

/// The parts of the computation that exist for speed answer as the plain ones would.
@Suite struct HashingShortcutTests {
    /// Names sort by UTF-16 code unit: a character above U+FFFF (a surrogate pair, D83D…) comes
    /// before U+FF21, although its code point and its UTF-8 bytes are greater.
    @Test func nameOrderIsUTF16s() {
        #expect(VersionHasher.precedes("a\u{1F600}", "a\u{FF21}"))
        #expect(!VersionHasher.precedes("a\u{FF21}", "a\u{1F600}"))
        #expect(VersionHasher.precedes("Zebra", "apple"))
        #expect(VersionHasher.precedes("ab", "abc"))
        #expect(!VersionHasher.precedes("abc", "abc"))
        #expect(VersionHasher.precedes("é", "ê"))
        for (lhs, rhs) in [("x", "\u{E000}"), ("\u{E000}", "\u{10000}"), ("\u{7FF}", "\u{800}"), ("", "a")] {
            #expect(VersionHasher.precedes(lhs, rhs) == lhs.utf16.lexicographicallyPrecedes(rhs.utf16))
            #expect(VersionHasher.precedes(rhs, lhs) == rhs.utf16.lexicographicallyPrecedes(lhs.utf16))
        }
    }

    /// A model of 512 entities or more hashes its properties on every core: the same hashes.
    @Test func hashingOnEveryCoreGivesTheSameHashes() throws {
        let entity = { (index: Int) in
            "<entity name=\"E\(index)\"\(index % 7 == 0 ? " parentEntity=\"Base\"" : "")>"
                + "<attribute name=\"a\(index)\" optional=\"YES\" attributeType=\"String\"/>"
                + "<relationship name=\"base\" optional=\"YES\" maxCount=\"1\" deletionRule=\"Nullify\" destinationEntity=\"Base\"/></entity>"
        }
        let base = "<entity name=\"Base\"><attribute name=\"id\" attributeType=\"UUID\"/></entity>"
        let small = try Fixtures.model(base + (1..<300).map(entity).joined())
        let large = try Fixtures.model(base + (1..<700).map(entity).joined())
        let smallHashes = VersionHasher.hashes(of: small), largeHashes = VersionHasher.hashes(of: large)
        #expect(large.entities.count >= 512)
        for item in smallHashes.entities {
            #expect(largeHashes.entity(named: item.name)?.hash == item.hash, "\(item.name)")
        }
        #expect(largeHashes.entities.allSatisfy { $0.hash != nil })
    }
}

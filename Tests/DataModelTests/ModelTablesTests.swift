@testable import DataModel
import Testing
import MomlintTestSupport

/// The tables `Model` builds once (inverse positions, positions by identity) must answer exactly
/// as the lookups by name do, and sharing storage between copies must keep value semantics.
@Suite struct ModelTablesTests {
    /// The slow path of `inverse(of:)`: a relationship that is not the model's own (here a
    /// changed copy) is resolved by name, and must agree with the table for the original.
    @Test func tableAndNameLookupAgreeOnEveryRelationship() throws {
        let model = try Fixtures.model("""
            <entity name="Animal" isAbstract="YES">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
            </entity>
            <entity name="Dog" parentEntity="Animal"/>
            <entity name="Person">
                <attribute name="label" optional="YES" attributeType="String"/>
                <relationship name="pets" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Dog" inverseName="owner" inverseEntity="Dog"/>
                <relationship name="tag" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="label" inverseEntity="Person"/>
                <relationship name="ghost" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Nowhere" inverseName="x" inverseEntity="Nowhere"/>
                <relationship name="alone" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
            </entity>
            """)
        for (entityIndex, entity) in model.entities.enumerated() {
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                let position = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                #expect(model.position(of: relationship) == position)
                var changed = relationship
                changed.renamingIdentifier = "changed"  // a new value: not the model's own any more
                #expect(model.position(of: changed) == nil)
                #expect(model.inverse(of: changed)?.location == model.inverse(of: relationship)?.location)
                #expect(model.inversePosition(of: position).map(model.relationship(at:))?.location
                        == model.inverse(of: relationship)?.location)
            }
        }
        let person = try #require(model.entity(named: "Person"))
        // Found on the inverse entity's ancestor, as Core Data does.
        #expect(model.inverse(of: person.relationships[0])?.name == "owner")
        // An attribute, an unknown entity, no inverse at all: none is a relationship's inverse.
        #expect(model.inverse(of: person.relationships[1]) == nil)
        #expect(model.inverse(of: person.relationships[2]) == nil)
        #expect(model.inverse(of: person.relationships[3]) == nil)
    }

    /// The flat name table answers exactly as the properties themselves, in their order, for
    /// every kind of property, a repeated name, an empty entity, and an entity past the size
    /// at which `Model` switches from scanning names to a dictionary.
    @Test func flatPropertyNamesMatchEveryEntitysProperties() throws {
        // The last repeats the first name with another type: in the dictionary, the first wins too.
        let many = (0..<30).map { "<attribute name=\"field\($0)\" optional=\"YES\" attributeType=\"String\"/>" }
            + ["<attribute name=\"field0\" optional=\"YES\" attributeType=\"Integer 16\" usesScalarValueType=\"YES\"/>"]
        let model = try Fixtures.model("""
            <entity name="Note">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="title" optional="YES" attributeType="Integer 16" usesScalarValueType="YES"/>
                <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                <fetchedProperty name="siblings" optional="YES">
                    <fetchRequest name="fetchedPropertyFetchRequest" entity="Note" predicateString="folder == $FETCH_SOURCE.folder"/>
                </fetchedProperty>
            </entity>
            <entity name="Folder">
                <relationship name="notes" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                \(many.joined(separator: "\n    "))
            </entity>
            <entity name="Empty"/>
            """)
        for (index, entity) in model.entities.enumerated() {
            let names = model.ownPropertyNames(ofEntityAt: index)
            #expect(Array(names) == entity.properties.map(\.name))
            #expect(entity.properties.count == entity.propertyCount)
        }
        let note = try #require(model.entity(named: "Note"))
        #expect(Array(model.ownPropertyNames(ofEntityAt: 0)) == ["title", "title", "folder", "siblings"])
        // The first declaration of a repeated name wins; each kind is found in its own array.
        #expect(model.ownProperty(named: "title", in: note)?.asAttribute?.attributeType == .string)
        #expect(model.ownProperty(named: "folder", in: note)?.asRelationship?.name == "folder")
        if case .fetchedProperty(let fetched)? = model.ownProperty(named: "siblings", in: note) {
            #expect(fetched.name == "siblings")
        } else {
            Issue.record("'siblings' should be found as a fetched property")
        }
        let folder = try #require(model.entity(named: "Folder"))
        #expect(model.ownProperty(named: "field29", in: folder)?.asAttribute?.name == "field29")
        #expect(model.ownProperty(named: "field0", in: folder)?.asAttribute?.attributeType == .string)
        #expect(model.ownProperty(named: "notes", in: folder)?.asRelationship?.name == "notes")
        #expect(model.ownProperty(named: "missing", in: note) == nil)
        #expect(model.ownPropertyNames(ofEntityAt: 2).isEmpty)
    }

    /// The trait tables choose exactly the relationships and attributes a filter over the
    /// values themselves would, in document order, with each inverse's traits beside them.
    @Test func traitTablesAgreeWithTheValuesThemselves() throws {
        let model = try Fixtures.model("""
            <entity name="Folder">
                <attribute name="title" attributeType="String" defaultValueString="Untitled"/>
                <attribute name="size" optional="YES" attributeType="Integer 64" usesScalarValueType="YES"/>
                <attribute name="blob" optional="YES" transient="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                <relationship name="notes" optional="YES" toMany="YES" minCount="2" deletionRule="Cascade" destinationEntity="Note" inverseName="folder" inverseEntity="Note"/>
                <relationship name="owner" maxCount="1" deletionRule="Deny" destinationEntity="Person"/>
            </entity>
            <entity name="Note">
                <attribute name="kind" optional="YES" attributeType="UInt32"/>
                <attribute name="due" optional="YES" attributeType="Date" minDateTimeInterval="0"/>
                <relationship name="folder" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                <relationship name="shadow" optional="YES" transient="YES" maxCount="1" deletionRule="No Action" destinationEntity="Folder" inverseName="missing" inverseEntity="Folder"/>
            </entity>
            <entity name="Person"/>
            """)
        var expectedRelationships: [RelationshipPosition] = []
        for (entityIndex, entity) in model.entities.enumerated() {
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                let position = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                let traits = model.traits(ofRelationshipAt: position)
                #expect(traits == RelationshipTraits(relationship))
                #expect(traits.deletionRule == relationship.deletionRule.kind && traits.isToMany == relationship.isToMany
                        && traits.isOptional == relationship.isOptional && traits.isTransient == relationship.isTransient
                        && traits.hasInverseName == (relationship.inverseName != nil)
                        && traits.minimumCount == (relationship.minCount ?? 0) && traits.isRequired == relationship.isRequired)
                if model.inverse(of: relationship).map(RelationshipTraits.init)?.isToMany == true {
                    expectedRelationships.append(position)
                }
            }
        }
        // Folder.notes <-> Note.folder: only Note.folder has a to-many inverse.
        #expect(expectedRelationships == [RelationshipPosition(entityIndex: 1, relationshipIndex: 0)])
        #expect(model.relationshipPositions { _, inverse in inverse?.isToMany == true } == expectedRelationships)
        #expect(model.relationshipPositions { traits, _ in traits.deletionRule == .deny }
                == [RelationshipPosition(entityIndex: 0, relationshipIndex: 1)])
        // An inverse that does not resolve gives no inverse traits.
        #expect(model.relationshipPositions { traits, inverse in traits.hasInverseName && inverse == nil }
                == [RelationshipPosition(entityIndex: 1, relationshipIndex: 1)])
        #expect(model.relationshipPositions { _, _ in true }.count == 4)
        // Document order numbers the relationships entity by entity, for flat per-relationship arrays.
        #expect(model.relationshipCount == 4)
        #expect(model.relationshipPositions { _, _ in true }.map(model.documentIndex(of:)) == [0, 1, 2, 3])
        #expect(model.documentIndex(of: RelationshipPosition(entityIndex: 1, relationshipIndex: 1)) == 3)

        #expect(model.attributePositions { $0.hasDefaultOrBounds }
                == [AttributePosition(entityIndex: 0, attributeIndex: 0), AttributePosition(entityIndex: 1, attributeIndex: 1)])
        #expect(model.attributePositions { $0.allowsExternalBinaryDataStorage && $0.isTransient }
                == [AttributePosition(entityIndex: 0, attributeIndex: 2)])
        #expect(model.attributePositions { $0.attributeType == .unknown("UInt32") }
                == [AttributePosition(entityIndex: 1, attributeIndex: 0)])
        for position in model.attributePositions(where: { _ in true }) {
            let attribute = model.entities[position.entityIndex].attributes[position.attributeIndex]
            #expect(model.traits(ofAttributeAt: position) == AttributeTraits(attribute))
            #expect(model.attribute(at: position) == attribute)
            #expect(model.traits(ofAttributeAt: position).isOptional == attribute.isOptional)
        }
        #expect(model.attributePositions(where: { _ in true }).count == 5)
    }

    /// The entity trait table agrees with the entities: userInfo, fetched properties, and any
    /// uniqueness constraint, fetch index or compound index.
    @Test func entityTraitTableAgreesWithTheEntities() throws {
        let model = try Fixtures.model("""
            <entity name="Plain">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Unique">
                <attribute name="email" optional="YES" attributeType="String"/>
                <uniquenessConstraints>
                    <uniquenessConstraint><constraint value="email"/></uniquenessConstraint>
                </uniquenessConstraints>
            </entity>
            <entity name="Indexed">
                <attribute name="title" optional="YES" attributeType="String"/>
                <fetchIndex name="byTitle">
                    <fetchIndexElement property="title" type="Binary" order="ascending"/>
                </fetchIndex>
                <userInfo><entry key="k" value="v"/></userInfo>
            </entity>
            <entity name="Compound">
                <attribute name="title" optional="YES" attributeType="String"/>
                <compoundIndexes>
                    <compoundIndex><index value="title"/></compoundIndex>
                </compoundIndexes>
            </entity>
            """)
        for (entityIndex, entity) in model.entities.enumerated() {
            #expect(model.traits(ofEntityAt: entityIndex) == EntityTraits(entity), "\(entity.name)")
        }
        #expect(model.entityIndexes { $0.hasConstraintsOrIndexes } == [1, 2, 3])
        #expect(model.entityIndexes { $0.hasUserInfo } == [2])
        #expect(model.entityIndexes { $0.hasFetchedProperties }.isEmpty)
    }

    /// Destinations, ancestors and the new traits, read from the tables, agree with what the
    /// lookups by name find: unknown and missing destinations, a repeated entity name, an
    /// unknown parent, an inheritance cycle, and counts written in every unusual way.
    @Test func destinationAncestorAndCountTablesAgreeWithTheLookupsByName() throws {
        let model = try Fixtures.model("""
            <entity name="Animal" isAbstract="YES"/>
            <entity name="Dog" parentEntity="Animal">
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="dogs" inverseEntity="Person"/>
                <relationship name="nowhere" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Ghost"/>
                <relationship name="unnamed" optional="YES" maxCount="1" deletionRule="Nullify"/>
                <relationship name="other" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="x" inverseEntity="Animal"/>
            </entity>
            <entity name="Puppy" parentEntity="Dog"/>
            <entity name="Person">
                <relationship name="dogs" optional="YES" toMany="YES" minCount="2" maxCount="5" deletionRule="Nullify" destinationEntity="Dog" inverseName="owner" inverseEntity="Dog"/>
                <relationship name="best" optional="YES" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Dog"/>
                <relationship name="odd" optional="YES" maxCount="many" deletionRule="Nullify" destinationEntity="Dog"/>
                <relationship name="negative" optional="YES" minCount="-1" deletionRule="Nullify" destinationEntity="Dog"/>
            </entity>
            <entity name="Person" parentEntity="Dog"/>
            <entity name="Orphan" parentEntity="Missing"/>
            <entity name="X" parentEntity="Y"/>
            <entity name="Y" parentEntity="X"/>
            """)
        for (entityIndex, entity) in model.entities.enumerated() {
            // The ancestors by index are the ancestors by name, for the first of a repeated name too.
            let expected = model.ancestors(of: entity).map { model.entityIndex(named: $0.name) }
            #expect(model.ancestorIndexes(ofEntityAt: entityIndex) == expected, "\(entity.name) at \(entityIndex)")
            #expect(model.parentIndex(ofEntityAt: entityIndex) == entity.parentEntityName.flatMap(model.entityIndex(named:)))
            #expect(model.nameOfEntity(at: entityIndex) == entity.name)
            #expect(model.namesakeIndex(ofEntityAt: entityIndex) == model.entityIndex(named: entity.name))
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                let position = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                #expect(model.relationship(at: position) == relationship)
                #expect(model.destinationIndex(ofRelationshipAt: position)
                        == relationship.destinationEntityName.flatMap(model.entityIndex(named:)))
                let traits = model.traits(ofRelationshipAt: position)
                #expect(traits.namesOtherInverseEntity
                        == (relationship.inverseEntityName.map { $0 != relationship.destinationEntityName } ?? false))
            }
        }
        #expect(model.ancestorIndexes(ofEntityAt: 2) == [1, 0])
        #expect(model.ancestorIndexes(ofEntityAt: 4) == [1, 0])  // the second "Person"
        #expect(model.namesakeIndex(ofEntityAt: 4) == 3)        // the second "Person" names the first
        #expect(model.ancestorIndexes(ofEntityAt: 5).isEmpty)    // an unknown parent
        #expect(model.ancestorIndexes(ofEntityAt: 6) == [7])     // the cycle stops
        #expect(model.destinationIndex(ofRelationshipAt: RelationshipPosition(entityIndex: 1, relationshipIndex: 0)) == 3)
        #expect(model.destinationIndex(ofRelationshipAt: RelationshipPosition(entityIndex: 1, relationshipIndex: 1)) == nil)
        #expect(model.destinationIndex(ofRelationshipAt: RelationshipPosition(entityIndex: 1, relationshipIndex: 2)) == nil)
        // Counts of 0 and 1 are ordinary; anything else, or anything not a whole number, is not.
        let unusual = model.relationshipPositions { traits, _ in traits.hasUnusualCount }
            .map { model.relationship(at: $0).name }
        #expect(unusual == ["dogs", "odd", "negative"])
        #expect(model.relationshipPositions { traits, _ in traits.namesOtherInverseEntity }
            .map { model.relationship(at: $0).name } == ["other"])
    }

    /// A model's tables are built while it loads, as its entities close, and its inverses
    /// resolved in chunks on every core: they must answer exactly as tables built from the
    /// finished list of entities, for models of a few hundred entities, with more relationships
    /// than one chunk holds, with references forward and backward, inheritance and a repeated name.
    @Test(arguments: [255, 256, 257, 775, ModelIndex.resolvedChunkSize + 5])
    func tablesBuiltWhileLoadingMatchTablesBuiltAfterwards(entityCount: Int) throws {
        let entities = (0..<entityCount).map { index in
            let next = (index + 1) % entityCount, previous = (index + entityCount - 1) % entityCount
            let parent = index % 5 == 4 ? " parentEntity=\"E\(index - 1)\"" : ""
            // The last entity repeats the name of the first.
            let name = index == entityCount - 1 ? "E0" : "E\(index)"
            return """
                <entity name="\(name)"\(parent)>
                    <attribute name="a\(index)" optional="YES" attributeType="String"/>
                    <relationship name="next" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E\(next)" inverseName="previous" inverseEntity="E\(next)"/>
                    <relationship name="previous" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="E\(previous)" inverseName="next" inverseEntity="E\(previous)"/>
                </entity>
                """
        }
        let loaded = try Fixtures.model(entities.joined(separator: "\n"))
        let rebuilt = Model(file: loaded.file, entities: loaded.entities)
        #expect(loaded.entities.count == entityCount)
        for entityIndex in loaded.entities.indices {
            #expect(loaded.parentIndex(ofEntityAt: entityIndex) == rebuilt.parentIndex(ofEntityAt: entityIndex))
            #expect(loaded.ancestorIndexes(ofEntityAt: entityIndex) == rebuilt.ancestorIndexes(ofEntityAt: entityIndex))
            #expect(loaded.nameOfEntity(at: entityIndex) == rebuilt.nameOfEntity(at: entityIndex))
            #expect(loaded.namesakeIndex(ofEntityAt: entityIndex) == rebuilt.namesakeIndex(ofEntityAt: entityIndex))
            #expect(Array(loaded.ownPropertyNames(ofEntityAt: entityIndex)) == Array(rebuilt.ownPropertyNames(ofEntityAt: entityIndex)))
        }
        #expect(loaded.namesakeIndex(ofEntityAt: entityCount - 1) == 0)  // the repeated "E0"
        let positions = loaded.relationshipPositions { _, _ in true }
        #expect(positions == rebuilt.relationshipPositions { _, _ in true })
        #expect(positions.count == 2 * entityCount)
        for position in positions {
            #expect(loaded.inversePosition(of: position) == rebuilt.inversePosition(of: position))
            #expect(loaded.destinationIndex(ofRelationshipAt: position) == rebuilt.destinationIndex(ofRelationshipAt: position))
            #expect(loaded.traits(ofRelationshipAt: position) == rebuilt.traits(ofRelationshipAt: position))
            #expect(loaded.position(of: loaded.relationship(at: position)) == position)
        }
        #expect(loaded.attributePositions { _ in true } == rebuilt.attributePositions { _ in true })
    }

    @Test func inverseLookupStopsOnAnInheritanceCycle() throws {
        let model = try Fixtures.model("""
            <entity name="A" parentEntity="B"/>
            <entity name="B" parentEntity="A"/>
            <entity name="C">
                <relationship name="toA" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="missing" inverseEntity="A"/>
            </entity>
            """)
        let relationship = try #require(model.entity(named: "C")?.relationships.first)
        #expect(model.inverse(of: relationship) == nil)
    }

    /// Longer than the chains the lookups scan without a set, to reach the set.
    @Test func deepInheritanceIsWalkedWholeAndCyclesStillStop() throws {
        let depth = 100
        var entities = (0..<depth).map { index in
            "<entity name=\"E\(index)\"\(index > 0 ? " parentEntity=\"E\(index - 1)\"" : "")/>"
        }
        entities[0] = """
            <entity name="E0"><relationship name="back" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Holder" inverseName="deep" inverseEntity="Holder"/></entity>
            """
        entities.append("""
            <entity name="Holder"><relationship name="deep" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="E\(depth - 1)" inverseName="back" inverseEntity="E\(depth - 1)"/></entity>
            """)
        let model = try Fixtures.model(entities.joined(separator: "\n"))
        let leaf = try #require(model.entity(named: "E\(depth - 1)"))
        #expect(model.ancestors(of: leaf).count == depth - 1)
        let deep = try #require(model.entity(named: "Holder")?.relationships.first)
        #expect(model.inverse(of: deep)?.name == "back")

        let cyclic = try Fixtures.model((0..<50).map { "<entity name=\"C\($0)\" parentEntity=\"C\(($0 + 1) % 50)\"/>" }
            .joined(separator: "\n"))
        let start = try #require(cyclic.entity(named: "C0"))
        #expect(cyclic.ancestors(of: start).count == 49)
        #expect(cyclic.hasInheritanceCycle(start))
    }

    /// A model built in code may put the same relationship value on two entities: identity
    /// cannot say which one is meant, so the lookup falls back to names and stays right.
    @Test func oneRelationshipValueAtTwoPositionsHasNoPositionByIdentity() throws {
        let location = SourceLocation(file: "code", line: 1, column: 1)
        let shared = Relationship(name: "owner", destinationEntityName: "Person", inverseName: "pets",
                                  inverseEntityName: "Person", location: location)
        let pets = Relationship(name: "pets", destinationEntityName: "Dog", inverseName: "owner",
                                inverseEntityName: "Dog", isToMany: true, location: location)
        let model = Model(file: "code", entities: [
            Entity(name: "Dog", relationships: [shared], location: location),
            Entity(name: "Cat", relationships: [shared], location: location),
            Entity(name: "Person", relationships: [pets], location: location),
        ])
        #expect(model.position(of: shared) == nil)
        #expect(model.position(of: pets) == RelationshipPosition(entityIndex: 2, relationshipIndex: 0))
        #expect(model.inverse(of: shared)?.name == "pets")
        #expect(model.inverse(of: pets)?.name == "owner")
    }

    @Test func copiesShareStorageButChangeAlone() throws {
        let model = try Fixtures.model("""
            <entity name="Note">
                <attribute name="title" optional="YES" attributeType="String"/>
            </entity>
            """)
        let original = try #require(model.entity(named: "Note"))
        var copy = original
        #expect(copy == original)
        copy.name = "Memo"
        copy.attributes[0].name = "heading"
        #expect(original.name == "Note")
        #expect(original.attributes[0].name == "title")
        #expect(model.entities[0].attributes[0].name == "title")
        #expect(copy.name == "Memo" && copy.attributes[0].name == "heading")
        #expect(copy != original)
        #expect(Set([original, original, copy]).count == 2)
    }

    /// An attribute's seldom-set fields (bounds, identifiers…) live in a block of their own, made
    /// only when one is set: where they live must never show. A block that went back to nils
    /// equals no block, hashes alike, and a copy changes alone.
    @Test func seldomSetFieldsKeepValueSemantics() throws {
        let model = try Fixtures.model("""
            <entity name="Note">
                <attribute name="title" optional="YES" attributeType="String"/>
                <attribute name="rank" optional="YES" attributeType="Integer 16" minValueString="1" maxValueString="9" elementID="r"/>
            </entity>
            """)
        let plain = model.entities[0].attributes[0], bounded = model.entities[0].attributes[1]
        #expect(plain.minValueString == nil && plain.elementID == nil)
        #expect(bounded.minValueString == "1" && bounded.maxValueString == "9" && bounded.elementID == "r")

        var emptied = plain
        emptied.renamingIdentifier = "old"
        #expect(emptied != plain)
        emptied.renamingIdentifier = nil
        #expect(emptied == plain)
        #expect(Set([plain, emptied]).count == 1)

        var changed = bounded
        changed.minValueString = "2"
        #expect(bounded.minValueString == "1" && changed.minValueString == "2")
        #expect(model.entities[0].attributes[1].minValueString == "1")
        #expect(changed != bounded)
        changed.minValueString = "1"
        #expect(changed == bounded)

        // The initializer makes the same value as the loader.
        let made = Attribute(name: "rank", attributeType: .integer16, isOptional: true, minValueString: "1",
                             maxValueString: "9", elementID: "r", xmlAttributes: bounded.xmlAttributes,
                             location: bounded.location)
        #expect(made == bounded)
    }

    /// A relationship's position is found by the identity of its storage (`RelationshipPositions`):
    /// the model's own relationship and its copies are found, and so are they through a model
    /// that shares its index (another version's view of it); an equal relationship of the same
    /// document read again is not. So the positions are no part of the index's equality, which
    /// holds the two readings' tables equal all the same.
    @Test func positionsAnswerByIdentityAndAreNotPartOfTheIndexEquality() throws {
        let body = """
            <entity name="Person">
                <relationship name="friend" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person"/>
            </entity>
            """
        let first = try Fixtures.model(body), second = try Fixtures.model(body)
        let position = RelationshipPosition(entityIndex: 0, relationshipIndex: 0)
        let relationship = first.relationship(at: position)
        #expect(first.position(of: relationship) == position)
        #expect(second.position(of: second.relationship(at: position)) == position)
        #expect(second.relationship(at: position) == relationship)
        #expect(second.position(of: relationship) == nil)
        let otherVersion = ModelVersion(bundlePath: nil, name: "Other", bundleVersionNames: ["Other"], selection: .standalone)
        #expect(first.replacingVersion(with: otherVersion).position(of: relationship) == position)
        #expect(ModelIndex(entities: first.entities) == ModelIndex(entities: second.entities))
    }
}

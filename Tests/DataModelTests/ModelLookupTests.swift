import DataModel
import Testing
import MomlintTestSupport

/// The lookups rules lean on: by name, through inheritance, across inverses.
@Suite struct ModelLookupTests {
    @Test func inheritedPropertiesAndInverses() throws {
        let model = try Fixtures.model("""
            <entity name="Animal" isAbstract="YES">
                <attribute name="name" attributeType="String"/>
                <relationship name="owner" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Person" inverseName="pets" inverseEntity="Person"/>
            </entity>
            <entity name="Dog" parentEntity="Animal">
                <attribute name="breed" optional="YES" attributeType="String"/>
            </entity>
            <entity name="Puppy" parentEntity="Dog"/>
            <entity name="Person">
                <relationship name="pets" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Animal" inverseName="owner" inverseEntity="Animal"/>
            </entity>
            """)
        let puppy = try #require(model.entity(named: "Puppy"))
        let animal = try #require(model.entity(named: "Animal"))
        #expect(model.ancestors(of: puppy).map(\.name) == ["Dog", "Animal"])
        #expect(model.root(of: puppy).name == "Animal")
        #expect(model.subentities(of: animal).map(\.name) == ["Dog"])
        #expect(model.allSubentities(of: animal).map(\.name) == ["Dog", "Puppy"])
        #expect(model.property(named: "name", in: puppy)?.asAttribute?.attributeType == .string)
        #expect(model.property(named: "breed", in: puppy) != nil)
        #expect(model.ownProperty(named: "breed", in: puppy) == nil)
        #expect(model.allAttributes(of: puppy).map(\.name) == ["name", "breed"])
        #expect(model.entity(puppy, isKindOf: "Animal"))
        #expect(!model.entity(animal, isKindOf: "Dog"))

        let pets = try #require(model.entity(named: "Person")?.relationships.first)
        #expect(model.inverse(of: pets)?.name == "owner")
        #expect(model.destination(of: pets)?.name == "Animal")
        let owner = try #require(animal.relationships.first)
        #expect(model.inverse(of: owner)?.name == "pets")
    }

    @Test func inheritanceCyclesTerminate() throws {
        let model = try Fixtures.model("""
            <entity name="A" parentEntity="C"/>
            <entity name="B" parentEntity="A"/>
            <entity name="C" parentEntity="B"/>
            <entity name="D" parentEntity="Missing"/>
            """)
        let a = try #require(model.entity(named: "A"))
        #expect(model.hasInheritanceCycle(a))
        #expect(model.ancestors(of: a).map(\.name) == ["C", "B"])
        #expect(model.allSubentities(of: a).map(\.name) == ["B", "C"])
        #expect(model.property(named: "nothing", in: a) == nil)
        let d = try #require(model.entity(named: "D"))
        #expect(!model.hasInheritanceCycle(d))
        #expect(model.parent(of: d) == nil)
    }

    @Test func inverseThatIsNotARelationshipResolvesToNil() throws {
        let model = try Fixtures.model("""
            <entity name="A">
                <attribute name="b" optional="YES" attributeType="String"/>
                <relationship name="toA" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="A" inverseName="b" inverseEntity="A"/>
            </entity>
            """)
        let relationship = try #require(model.entities.first?.relationships.first)
        #expect(model.inverse(of: relationship) == nil)
    }

    @Test func cloudKitOnTheModelCoversEveryEntityWithoutCloudConfiguration() throws {
        let model = try ModelLoader().model(
            fromContents: Array(Fixtures.contents("<entity name=\"A\"/><entity name=\"B\"/>",
                                                  modelAttributes: " usedWithCloudKit=\"YES\"").utf8),
            file: "inline")
        #expect(model.cloudKitEntityNames == ["A", "B"])
    }
}

import Conformance
import DataModel
@testable import ReferenceStore
import Testing

/// What the scenarios cannot say about the reference store: scale, and requests it must refuse.
@Suite struct ReferenceStoreTests {
    /// Delete propagation runs on a work list, not the call stack: deleting the head of a
    /// million-link cascade chain deletes every link, in the same process that runs the tests.
    @Test func aMillionObjectCascadeChainDoesNotOverflowTheStack() throws {
        let schema = try StoreSchema(model: try Fixtures.model("Cascade"))
        let link = try schema.entityIndex(named: "Link")
        let next = try schema.relationshipSlot("next", of: link)
        var context = ObjectContext(schema: schema)
        let length = 1_000_000
        for id in 0..<length {
            try context.insert(entity: link, name: "link\(id)", as: id, values: [])
            if id > 0 { try context.link(id - 1, slot: next, to: id) }
        }
        #expect(context.liveCount(ofKind: link) == length)

        context.delete(0)
        #expect(context.liveCount(ofKind: link) == 0)
        // The objects were never saved, so the save simply drops them all.
        #expect(context.save(policy: .error) == nil)
        #expect(context.graph.count == 0)
        #expect(context.invariantViolation() == nil)
    }

    /// `link` trusts a relationship and its inverse to mirror each other and appends without a
    /// scan — except where the two lists are one: an object linked to itself through a
    /// relationship that is its own inverse must appear once.
    @Test func aSelfInverseToManyHoldsAnObjectLinkedToItselfOnce() throws {
        let contents = """
            <model type="com.apple.IDECoreDataModeler.DataModel" documentVersion="1.0">
                <entity name="Person" representedClassName="Person" syncable="YES">
                    <relationship name="friends" optional="YES" toMany="YES" deletionRule="Nullify" \
            destinationEntity="Person" inverseName="friends" inverseEntity="Person"/>
                </entity>
            </model>
            """
        let store = try ReferenceStore(model: try ModelLoader().model(fromContents: Array(contents.utf8),
                                                                      file: "Friends.xcdatamodel/contents"))
        for name in ["ada", "bob"] {
            #expect(try store.perform(.insert(entity: "Person", object: name, values: [:])) == .done)
        }
        #expect(try store.perform(.link(object: "ada", relationship: "friends", destination: "bob")) == .done)
        #expect(try store.perform(.link(object: "ada", relationship: "friends", destination: "ada")) == .done)
        #expect(try store.perform(.link(object: "bob", relationship: "friends", destination: "ada")) == .done)
        #expect(try store.perform(.related(object: "ada", relationship: "friends")) == .objects(["bob", "ada"]))
        #expect(try store.perform(.related(object: "bob", relationship: "friends")) == .objects(["ada"]))
        #expect(store.context.invariantViolation() == nil)
        #expect(try store.perform(.save(policy: .error)) == .saved)
    }

    func store(_ model: String) throws -> ReferenceStore {
        try ReferenceStore(model: try Fixtures.model(model))
    }

    @Test func requestsItCannotPerformThrowTypedErrors() throws {
        let store = try store("Cascade")
        func kind(_ request: StoreRequest) -> StoreAdapterError.Kind? {
            do {
                _ = try store.perform(request)
                return nil
            } catch let error as StoreAdapterError {
                return error.kind
            } catch {
                return nil
            }
        }
        #expect(try store.perform(.insert(entity: "Folder", object: "home", values: [:])) == .done)
        #expect(try store.perform(.insert(entity: "File", object: "file", values: [:])) == .done)
        #expect(kind(.insert(entity: "Container", object: "c", values: [:])) == .invalidRequest)
        #expect(kind(.insert(entity: "Folder", object: "home", values: [:])) == .invalidRequest)
        #expect(kind(.insert(entity: "Planet", object: "p", values: [:])) == .noSuchProperty)
        #expect(kind(.set(object: "home", attribute: "colour", value: .string("red"))) == .noSuchProperty)
        #expect(kind(.set(object: "home", attribute: "name", value: .integer(3))) == .invalidRequest)
        #expect(kind(.link(object: "home", relationship: "note", destination: "file")) == .invalidRequest)
        #expect(kind(.value(object: "ghost", attribute: "name")) == .noSuchObject)
        #expect(try store.perform(.exists(object: "ghost")) == .exists(false))
        #expect(try store.perform(.delete(object: "home")) == .done)
        #expect(kind(.value(object: "home", attribute: "name")) == .noSuchObject)
    }

    @Test func itRefusesModelsThatCannotDescribeAStore() throws {
        let model = try Fixtures.model("Company")
        var entities = model.entities
        entities[0].relationships[0].destinationEntityName = "Nowhere"
        let broken = Model(file: model.file, entities: entities)
        #expect(throws: StoreAdapterError.self) { try ReferenceStore(model: broken) }
    }

    @Test func aFailedSaveLeavesTheSavedDataAsItWas() throws {
        let store = try store("Company")
        _ = try store.perform(.insert(entity: "Department", object: "sales", values: ["name": .string("Sales")]))
        _ = try store.perform(.insert(entity: "Employee", object: "alice", values: [:]))
        _ = try store.perform(.link(object: "alice", relationship: "department", destination: "sales"))
        #expect(try store.perform(.save(policy: .error)) == .saved)
        _ = try store.perform(.set(object: "sales", attribute: "name", value: .string("Revenue")))
        _ = try store.perform(.delete(object: "sales"))
        #expect(try store.perform(.save(policy: .error))
            == .saveFailed(SaveFailure(code: 1600, object: "sales", key: "employees")))
        _ = try store.perform(.reopen)
        #expect(try store.perform(.value(object: "sales", attribute: "name")) == .value(.string("Sales")))
        #expect(try store.perform(.related(object: "sales", relationship: "employees")) == .objects(["alice"]))
    }
}

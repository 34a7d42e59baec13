import Conformance
import DataModel
import Foundation
import SQLiteStore
import Testing

/// Child contexts in the SQLite adapter (contract §4.10) beyond what the `child.*` scenarios
/// cover: a child of a context on the store, to-many changes and cascades pushed to the
/// parent, a parent's own change standing when a child pushes another, and a Deny rule refusing
/// a child's save.
@Suite struct ChildContextTests {
    let scratch: ScratchDirectory
    let store: SQLiteConformanceStore

    init() throws {
        scratch = try ScratchDirectory()
        store = try SQLiteConformanceStore(
            path: scratch.path("child.sqlite"),
            setup: StoreSetup(model: try TestModels.company(), modelPath: scratch.path("Company.xcdatamodeld"), scenarioID: "child"))
    }

    @discardableResult
    func run(_ request: StoreRequest, in context: String? = nil) throws -> StoreResponse {
        try store.perform(context.map { .inContext(context: $0, request: request) } ?? request)
    }

    /// A relationship's members as a set (a many-to-many has no order).
    func related(_ object: String, _ relationship: String) throws -> Set<String> {
        guard case .objects(let names) = try run(.related(object: object, relationship: relationship)) else { return [] }
        return Set(names)
    }

    @Test func aChildOfAContextOnTheStoreSavesIntoThatContextOnly() throws {
        defer { store.close() }
        try run(.insert(entity: "Department", object: "sales", values: ["name": .string("Sales")]))
        #expect(try run(.save(policy: .error)) == .saved)
        try run(.addContext(name: "editor", parent: nil))
        try run(.addContext(name: "draft", parent: "editor"))
        try run(.set(object: "sales", attribute: "name", value: .string("Revenue")), in: "draft")
        #expect(try run(.save(policy: .error), in: "draft") == .saved)
        #expect(try run(.value(object: "sales", attribute: "name"), in: "editor") == .value(.string("Revenue")))
        #expect(try store.performOnSavedState(.value(object: "sales", attribute: "name")) == .value(.string("Sales")))
        #expect(try run(.save(policy: .error), in: "editor") == .saved)
        try run(.reopen)
        #expect(try run(.value(object: "sales", attribute: "name")) == .value(.string("Revenue")))
    }

    @Test func toManyChangesAndCascadesReachTheParentPendingOnly() throws {
        defer { store.close() }
        try run(.insert(entity: "Employee", object: "ann", values: ["name": .string("Ann")]))
        try run(.insert(entity: "Tag", object: "remote", values: [:]))
        try run(.insert(entity: "Tag", object: "senior", values: [:]))
        try run(.link(object: "ann", relationship: "tags", destination: "remote"))
        try run(.link(object: "ann", relationship: "tags", destination: "senior"))
        try run(.insert(entity: "Playlist", object: "mix", values: [:]))
        try run(.insert(entity: "Track", object: "one", values: [:]))
        try run(.insert(entity: "Track", object: "two", values: [:]))
        try run(.link(object: "mix", relationship: "tracks", destination: "one"))
        try run(.link(object: "mix", relationship: "tracks", destination: "two"))
        #expect(try run(.save(policy: .error)) == .saved)

        try run(.addContext(name: "draft", parent: ContextDeclaration.defaultName))
        try run(.unlink(object: "ann", relationship: "tags", destination: "senior"), in: "draft")
        try run(.insert(entity: "Tag", object: "lead", values: [:]), in: "draft")
        try run(.link(object: "lead", relationship: "employees", destination: "ann"), in: "draft")
        try run(.delete(object: "mix"), in: "draft")
        // Not yet saved: the parent sees none of it.
        #expect(try related("ann", "tags") == ["remote", "senior"])
        #expect(try run(.count(entity: "Track")) == .count(2))
        #expect(try run(.save(policy: .error), in: "draft") == .saved)

        #expect(try related("ann", "tags") == ["remote", "lead"])
        #expect(try related("senior", "employees").isEmpty)
        #expect(try run(.exists(object: "mix")) == .exists(false))
        #expect(try run(.count(entity: "Track")) == .count(0))
        #expect(try store.performOnSavedState(.count(entity: "Track")) == .count(2))
        #expect(try store.performOnSavedState(.count(entity: "Tag")) == .count(2))

        #expect(try run(.save(policy: .error)) == .saved)
        try run(.reopen)
        #expect(try related("ann", "tags") == ["remote", "lead"])
        #expect(try run(.count(entity: "Track")) == .count(0))
        #expect(try run(.count(entity: "Tag")) == .count(3))
    }

    @Test func aParentsOwnPendingChangeStandsWhenAChildPushesAnother() throws {
        defer { store.close() }
        try run(.insert(entity: "Employee", object: "ann", values: ["name": .string("Ann"), "age": .integer(30)]))
        #expect(try run(.save(policy: .error)) == .saved)
        try run(.addContext(name: "draft", parent: ContextDeclaration.defaultName))
        #expect(try run(.value(object: "ann", attribute: "age"), in: "draft") == .value(.integer(30)))
        try run(.set(object: "ann", attribute: "age", value: .integer(40)))
        try run(.set(object: "ann", attribute: "name", value: .string("Bea")), in: "draft")
        #expect(try run(.save(policy: .error), in: "draft") == .saved)
        #expect(try run(.value(object: "ann", attribute: "name")) == .value(.string("Bea")))
        #expect(try run(.value(object: "ann", attribute: "age")) == .value(.integer(40)))
    }

    /// A child's scratch files live in a folder the adapter makes (mode 0700) beside the store,
    /// and closing removes exactly them and the folder: a file beside the store named as a
    /// scratch file is someone else's and stays (`docs/security.md`, "What momlint writes").
    @Test func childScratchFilesLiveInAPrivateFolderRemovedAtClose() throws {
        let planted = scratch.path("context-planted.sqlite")
        try Data("not momlint's".utf8).write(to: URL(fileURLWithPath: planted))
        try run(.insert(entity: "Department", object: "sales", values: ["name": .string("Sales")]))
        try run(.addContext(name: "draft", parent: ContextDeclaration.defaultName))
        try run(.addContext(name: "sketch", parent: "draft"))
        #expect(try run(.count(entity: "Department"), in: "sketch") == .count(1))
        let folders = try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).filter { $0.hasPrefix("momlint-contexts-") }
        #expect(folders.count == 1)
        let folder = scratch.path(folders.first ?? "")
        #expect(try FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".sqlite") }.count == 2)
        store.close()
        #expect(!FileManager.default.fileExists(atPath: folder))
        #expect(try Data(contentsOf: URL(fileURLWithPath: planted)) == Data("not momlint's".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).allSatisfy { $0.hasPrefix("child.sqlite") || $0 == "context-planted.sqlite" })
    }

    @Test func aDenyRuleRefusesTheChildsSaveAndTheParentKeepsEverything() throws {
        defer { store.close() }
        try run(.insert(entity: "Department", object: "sales", values: ["name": .string("Sales")]))
        try run(.insert(entity: "Employee", object: "ann", values: ["name": .string("Ann")]))
        try run(.link(object: "ann", relationship: "department", destination: "sales"))
        #expect(try run(.save(policy: .error)) == .saved)
        try run(.addContext(name: "draft", parent: ContextDeclaration.defaultName))
        try run(.delete(object: "sales"), in: "draft")
        guard case .saveFailed(let failure) = try run(.save(policy: .error), in: "draft") else {
            Issue.record("the child's save went through a Deny rule")
            return
        }
        #expect(failure.code == CoreDataErrorCode.relationshipDeniedDelete)
        #expect(try run(.exists(object: "sales")) == .exists(true))
        #expect(try run(.changes) == .changes(ContextChanges(hasChanges: false)))
    }
}

import SQLiteCascadeBenchmark
import Testing
@testable import SQLiteStore

/// Delete propagation at scale: a work list, not recursion, so neither a wide fan-out nor a
/// long chain can overflow the stack. These assert the result, never the time.
@Suite struct LargeCascadeTests {
    static let size = 100_000

    @Test func aRootCascadingToOneHundredThousandChildrenGoesInOneSave() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("FanOut.sqlite")
        let model = try CascadeShape.model()
        var store = try SQLiteObjectStore(path: path, model: model)
        let root = try store.insert("Root")
        for index in 0..<Self.size {
            try store.link(try store.insert("Child", values: ["index": .integer(Int64(index))]), "root", to: root)
        }
        try store.save()
        try store.close()

        store = try SQLiteObjectStore(path: path, model: model)
        #expect(try store.related(root, "children").count == Self.size)
        try store.delete(root)
        #expect(try store.count("Child") == 0)
        try store.save()
        try store.close()

        store = try SQLiteObjectStore(path: path, model: model)
        #expect(try store.count("Root") == 0)
        #expect(try store.count("Child") == 0)
    }

    @Test func aChainOfOneHundredThousandNodesIsDeletedFromItsHead() throws {
        let scratch = try ScratchDirectory()
        let path = scratch.path("Chain.sqlite")
        let model = try CascadeShape.model()
        var store = try SQLiteObjectStore(path: path, model: model)
        let head = try store.insert("Node")
        var tail = head
        for _ in 1..<Self.size {
            let next = try store.insert("Node")
            try store.link(tail, "next", to: next)
            tail = next
        }
        try store.save()
        try store.close()

        store = try SQLiteObjectStore(path: path, model: model)
        #expect(try store.related(tail, "previous").count == 1)
        try store.delete(head)
        #expect(try !store.exists(tail))
        #expect(try store.count("Node") == 0)
        try store.save()
        try store.close()

        store = try SQLiteObjectStore(path: path, model: model)
        #expect(try store.count("Node") == 0)
    }
}

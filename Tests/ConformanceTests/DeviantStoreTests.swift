import Conformance
import DataModel
import ReferenceStore
import Testing

/// The suite has teeth: a store that gets a delete rule wrong fails the scenarios about it.
/// Each deviant store is the reference store reading a model whose rules were rewritten.
@Suite struct DeviantStoreTests {
    /// The reference store, opened on `model` with every `from` rule read as `to`.
    static func adapter(_ name: String, reading from: DeleteRule, as to: DeleteRule) -> ClosureStoreAdapter {
        ClosureStoreAdapter(name: name) { setup in
            try ReferenceStore(model: rewriting(setup.model, rule: from, as: to))
        }
    }

    static func rewriting(_ model: Model, rule from: DeleteRule, as to: DeleteRule) -> Model {
        let entities = model.entities.map { entity in
            var entity = entity
            entity.relationships = entity.relationships.map { relationship in
                var relationship = relationship
                if relationship.deletionRule == from { relationship.deletionRule = to }
                return relationship
            }
            return entity
        }
        return Model(file: model.file, version: model.version, entities: entities,
                     configurations: model.configurations, fetchRequests: model.fetchRequests,
                     composites: model.composites, userInfo: model.userInfo,
                     unknownElements: model.unknownElements, xmlAttributes: model.xmlAttributes,
                     location: model.location)
    }

    func failures(of adapter: some StoreAdapter) async throws -> Set<String> {
        let results = await ConformanceRunner().run(try Fixtures.allScenarios(), adapter: adapter)
        return Set(results.filter(\.failed).map(\.scenarioID))
    }

    @Test func denyTreatedAsNullifyIsCaught() async throws {
        let failed = try await failures(of: Self.adapter("deny-as-nullify", reading: .deny, as: .nullify))
        #expect(failed.isSuperset(of: [
            "deny.non-empty-to-many-fails", "deny.to-one-non-empty-fails", "deny.some-destinations-deleted-fails",
            "deny.failure-keeps-pending-changes", "cascade.reaches-deny-fails", "save.failed-save-keeps-pending-changes",
        ]))
        // Scenarios where Deny is satisfied pass either way.
        #expect(!failed.contains("deny.empty-to-many-succeeds"))
        #expect(!failed.contains("deny.destinations-deleted-in-same-save"))
    }

    @Test func cascadeTreatedAsNullifyIsCaught() async throws {
        let failed = try await failures(of: Self.adapter("cascade-as-nullify", reading: .cascade, as: .nullify))
        #expect(failed.isSuperset(of: [
            "cascade.to-one", "cascade.to-many", "cascade.chain", "cascade.cycle-of-two", "cascade.cycle-of-three",
            "cascade.fan-in", "cascade.rule-on-abstract-parent", "inheritance.subentity-as-destination",
        ]))
        #expect(!failed.contains { $0.hasPrefix("deny.") || $0.hasPrefix("constraints.") })
    }

    @Test func noActionTreatedAsNullifyIsCaught() async throws {
        let failed = try await failures(of: Self.adapter("no-action-as-nullify", reading: .noAction, as: .nullify))
        #expect(failed == ["no-action.to-many-leaves-dangling-reference", "no-action.to-one-leaves-dangling-reference"])
    }
}

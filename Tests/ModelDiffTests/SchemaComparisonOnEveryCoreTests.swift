import DataModel
@testable import ModelDiff
import ModelGenerator
import Testing

/// A large newer version is compared in runs of entities on every core and the runs joined in
/// order; the changes must be exactly those of comparing every entity in turn.
@Suite struct SchemaComparisonOnEveryCoreTests {
    static func load(entities: Int, seed: UInt64) throws -> Model {
        try ModelLoader().model(fromContents: Array(SyntheticModel(entityCount: entities, seed: seed).contents().utf8),
                                file: "seed\(seed)/contents")
    }

    @Test(arguments: [(1, 2), (2, 1), (3, 3)] as [(UInt64, UInt64)])
    func runsOnEveryCoreGiveTheChangesOfOneRun(olderSeed: UInt64, newerSeed: UInt64) throws {
        let entities = 2 * SchemaComparison.concurrentEntityCount + 37
        let older = try Self.load(entities: entities, seed: olderSeed)
        let newer = try Self.load(entities: entities, seed: newerSeed)
        let comparison = SchemaComparison(older: older, newer: newer)
        let (inTurn, hashChangesInTurn) = comparison.changes(onEveryCore: false)
        let (onEveryCore, hashChangesOnEveryCore) = comparison.changes()
        #expect(hashChangesOnEveryCore == hashChangesInTurn)
        #expect(onEveryCore.count == inTurn.count)
        let firstDifference = inTurn.indices.first { $0 >= onEveryCore.count || onEveryCore[$0] != inTurn[$0] }
        #expect(firstDifference == nil, "first different change: \(firstDifference.map { inTurn[$0].details } ?? "")")
        if olderSeed != newerSeed {
            #expect(inTurn.count > entities, "two seeds differ almost everywhere")
        } else {
            #expect(inTurn.isEmpty && hashChangesInTurn.isEmpty, "a version compared with itself changes nothing")
        }
    }
}

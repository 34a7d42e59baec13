import DataModel
import Foundation
import Linting
@testable import ModelGenerator
import Testing

@Suite("Synthetic models")
struct SyntheticModelTests {
    static func load(_ model: SyntheticModel) throws -> Model {
        try ModelLoader().model(fromContents: Array(model.contents().utf8), file: model.name + "/contents")
    }

    @Test("the same entity count and seed give identical bytes", arguments: [1, 10, 100])
    func deterministic(entityCount: Int) {
        let first = SyntheticModel(entityCount: entityCount, seed: 7).contents()
        let second = SyntheticModel(entityCount: entityCount, seed: 7).contents()
        #expect(first == second)
        #expect(first.utf8.count > 200 * entityCount)
    }

    @Test("different seeds give different models")
    func seedMatters() {
        #expect(SyntheticModel(entityCount: 20, seed: 1).contents() != SyntheticModel(entityCount: 20, seed: 2).contents())
    }

    @Test("a fixed seed gives a fixed model on every machine and Swift version")
    func stableAcrossMachines() {
        // SplitMix64's published first outputs for seed 0 (Vigna's reference splitmix64.c).
        var random = SplitMix64(seed: 0)
        #expect(random.next() == 0xE220_A839_7B1D_CDAF)
        #expect(random.next() == 0x6E78_9E6A_A1B9_65F4)
        // And the model built from the sequence: a change here changes every benchmark's input.
        let contents = SyntheticModel(entityCount: 3, seed: 1).contents()
        #expect(contents.hasPrefix(#"<?xml version="1.0" encoding="UTF-8" standalone="yes"?>"#))
        #expect(contents.contains(#"<entry key="seed" value="1"/>"#))
    }

    @Test("bounded draws stay in range and reach every value")
    func boundedDraws() {
        var random = SplitMix64(seed: 99)
        var seen = Set<Int>()
        for _ in 0..<1_000 {
            let value = random.below(7)
            #expect((0..<7).contains(value))
            seen.insert(value)
        }
        #expect(seen.count == 7)
    }

    @Test("the output loads with no failure and the expected entity count", arguments: [1, 2, 5, 10, 100, 1_000])
    func loads(entityCount: Int) throws {
        let model = try Self.load(SyntheticModel(entityCount: entityCount, seed: 3))
        #expect(model.entities.count == entityCount)
        #expect(Set(model.entities.map(\.name)).count == entityCount)
        #expect(model.unknownElements.isEmpty)
        #expect(model.entities.allSatisfy { $0.unknownElements.isEmpty })
    }

    @Test("a generated model lints with no finding from missing_inverse", arguments: [10, 100, 1_000])
    func noMissingInverse(entityCount: Int) throws {
        let model = try Self.load(SyntheticModel(entityCount: entityCount, seed: 11))
        #expect(LintEngine(rules: [MissingInverseRule.self]).lint(model).isEmpty)
    }

    @Test("a generated model has no error-severity finding from any rule", arguments: [10, 100, 1_000])
    func noErrors(entityCount: Int) throws {
        let model = try Self.load(SyntheticModel(entityCount: entityCount, seed: 5))
        let errors = LintEngine().lint(model).filter { $0.severity == .error }
        #expect(errors.isEmpty, "\(errors.prefix(5).map(\.message))")
    }

    @Test("every relationship's inverse exists and points back")
    func inversesPointBack() throws {
        let model = try Self.load(SyntheticModel(entityCount: 300, seed: 8))
        for entity in model.entities {
            for relationship in entity.relationships {
                let inverse = try #require(model.inverse(of: relationship), "\(entity.name).\(relationship.name)")
                #expect(inverse.inverseName == relationship.name)
                #expect(inverse.destinationEntityName == entity.name)
            }
        }
    }

    @Test("the model holds what a real one does")
    func realisticContent() throws {
        let model = try Self.load(SyntheticModel(entityCount: 100, seed: 4))
        let attributes = model.entities.flatMap(\.attributes)
        let types = Set(attributes.compactMap(\.attributeType))
        let offered: Set<AttributeType> = [
            .undefined, .integer16, .integer32, .integer64, .decimal, .double, .float, .string, .boolean,
            .date, .binary, .uuid, .uri, .transformable, .composite,
        ]
        #expect(types == offered)
        #expect(!model.composites.isEmpty)
        #expect(attributes.contains { $0.isDerived })

        let relationships = model.entities.flatMap(\.relationships)
        #expect(relationships.contains { !$0.isToMany })
        #expect(relationships.contains { $0.isOrdered })
        #expect(relationships.contains { $0.isToMany && model.inverse(of: $0)?.isToMany == true })
        #expect(relationships.contains { $0.isToMany && model.inverse(of: $0)?.isToMany == false })
        #expect(Set(relationships.map(\.deletionRule)) == [.nullify, .cascade, .deny])

        #expect(model.entities.contains { $0.parentEntityName != nil })
        #expect(model.entities.contains { $0.isAbstract })
        #expect(model.entities.contains { !$0.uniquenessConstraints.isEmpty })
        #expect(model.entities.contains { !$0.fetchIndexes.isEmpty })
        #expect(model.entities.contains { !$0.userInfo.isEmpty })
        #expect(!model.fetchRequests.isEmpty)
        #expect(model.userInfo["entities"] == "100")
        #expect(!model.cloudKitEntityNames.isEmpty)
        #expect(model.cloudKitEntityNames.count < model.entities.count)
    }

    @Test("entities synced with CloudKit keep to what CloudKit accepts")
    func cloudKitCompatible() throws {
        let model = try Self.load(SyntheticModel(entityCount: 300, seed: 9))
        let synced = model.cloudKitEntityNames
        for name in synced {
            let entity = try #require(model.entity(named: name))
            #expect(entity.uniquenessConstraints.isEmpty, "\(name)")
            for attribute in model.allAttributes(of: entity) {
                #expect(attribute.isOptional || attribute.hasDefaultValue, "\(name).\(attribute.name)")
                #expect(attribute.attributeType != .undefined, "\(name).\(attribute.name)")
            }
            for relationship in model.allRelationships(of: entity) {
                #expect(relationship.isOptional && !relationship.isOrdered, "\(name).\(relationship.name)")
                #expect(relationship.deletionRule != .deny, "\(name).\(relationship.name)")
                #expect(synced.contains(relationship.destinationEntityName ?? ""), "\(name).\(relationship.name)")
            }
        }
    }

    @Test("no Cascade leads into an entity that Denies, so no delete fails half-way")
    func noCascadeIntoDeny() throws {
        let model = try Self.load(SyntheticModel(entityCount: 1_000, seed: 6))
        let denying = Set(model.entities.filter { model.allRelationships(of: $0).contains { $0.deletionRule == .deny } }
            .map(\.name))
        #expect(!denying.isEmpty)
        for entity in model.entities {
            for relationship in entity.relationships where relationship.deletionRule == .cascade {
                let destination = try #require(model.destination(of: relationship))
                let reached = [destination] + model.allSubentities(of: destination)
                #expect(reached.allSatisfy { !denying.contains($0.name) }, "\(entity.name).\(relationship.name)")
            }
        }
    }

    @Test("no property repeats a name its entity declares or inherits")
    func uniquePropertyNames() throws {
        let model = try Self.load(SyntheticModel(entityCount: 500, seed: 12))
        for entity in model.entities {
            let names = (model.ancestors(of: entity) + [entity]).flatMap { $0.properties.map(\.name) }
            #expect(Set(names).count == names.count, "\(entity.name)")
        }
    }

    @Test("writing makes a bundle the loader picks its current version from")
    func writesBundle() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("momlint-generator-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let model = SyntheticModel(entityCount: 12, seed: 2)
        let bundle = try model.write(toFolder: folder)
        #expect(bundle == folder + "/Synthetic12.xcdatamodeld")
        let loaded = ModelLoader().load(paths: [bundle])
        #expect(loaded.failures.isEmpty)
        #expect(loaded.notes.isEmpty)
        #expect(loaded.models.first?.entities.count == 12)
        #expect(loaded.models.first?.version.selection == .declaredCurrent)

        #expect(throws: GenerationError(path: bundle, reason: .alreadyExists)) {
            try model.write(toFolder: folder)
        }
        #expect(try model.write(toFolder: folder, replacing: true) == bundle)
    }
}

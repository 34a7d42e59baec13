import DataModel
import Foundation
import ModelExport
import Testing

/// Every hash Core Data itself computed for the models in ../shared/corpus/version-hashes
/// (read from stores' Z_METADATA, compiled models' VersionInfo.plist and CoreStore version
/// locks), compared with what `momlint export` writes for the same model: the code the command
/// runs, not a second path. Skips when the corpus is absent.
@Suite struct VersionHashGoldenTests {
    static let folder = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/corpus/version-hashes")

    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var testDescription: String { name }
    }

    static var cases: [Case] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.sorted().filter { name in
            FileManager.default.fileExists(atPath: folder.appendingPathComponent("\(name)/truth.json").path)
        }.map(Case.init(name:))
    }

    struct Truth: Decodable {
        var entities: [String: String]
    }

    /// The export of a case's model and the hashes Core Data wrote for it.
    static func load(_ item: Case) throws -> (exported: ExportedModel, truth: [String: String]) {
        let caseFolder = folder.appendingPathComponent(item.name)
        let truth = try JSONDecoder().decode(Truth.self, from: Data(contentsOf: caseFolder.appendingPathComponent("truth.json")))
        let bytes = try Data(contentsOf: caseFolder.appendingPathComponent("model.xml"))
        let model = try ModelLoader().model(fromContents: Array(bytes), file: caseFolder.appendingPathComponent("model.xml").path)
        return (try ModelExporter().export(model).model, truth.entities)
    }

    @Test(.enabled(if: !cases.isEmpty, "../shared/corpus/version-hashes is absent"), arguments: cases)
    func everyEntityHashIsCoreDatas(_ item: Case) throws {
        let (exported, truth) = try Self.load(item)
        #expect(!truth.isEmpty)
        for (name, expected) in truth.sorted(by: { $0.key < $1.key }) {
            let entity = try #require(exported.entities.first { $0.name == name }, "\(item.name): no entity '\(name)'")
            #expect(entity.versionHash == expected, "\(item.name): '\(name)'")
        }
    }

    /// Every case together, so a failure shows the count, as the issue states it ("N of N").
    @Test(.enabled(if: !cases.isEmpty, "../shared/corpus/version-hashes is absent"))
    func allHashesCount() throws {
        var total = 0, exact = 0
        for item in Self.cases {
            let (exported, truth) = try Self.load(item)
            for (name, expected) in truth {
                total += 1
                if exported.entities.first(where: { $0.name == name })?.versionHash == expected { exact += 1 }
            }
        }
        #expect(total >= 19)
        #expect(exact == total, "\(exact) of \(total) entity hashes exact")
    }

    /// A model whose entity hashes all match has a digest too, and the export conforms to the schema.
    @Test(.enabled(if: !cases.isEmpty, "../shared/corpus/version-hashes is absent"), arguments: cases)
    func exportWithHashesConformsToTheSchema(_ item: Case) throws {
        let (exported, _) = try Self.load(item)
        #expect(exported.versionHashesDigest != nil)
        let instance = try JSONSerialization.jsonObject(with: exported.jsonData())
        #expect(try ModelExportTests.validator().errors(in: instance).map(\.description) == [])
    }
}

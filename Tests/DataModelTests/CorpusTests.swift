import DataModel
import Foundation
import Testing
import MomlintTestSupport

/// Real-world models from public projects, in `../shared/corpus/models` when this machine
/// has them. Every well-formed `contents` file must load.
@Suite(.enabled(if: Fixtures.hasCorpus, "the shared corpus is not on this machine"))
struct CorpusTests {
    static func contentsFiles() -> [String] {
        guard Fixtures.hasCorpus,
              let enumerator = FileManager.default.enumerator(atPath: Fixtures.corpus) else { return [] }
        return enumerator.compactMap { $0 as? String }
            .filter { ($0 as NSString).lastPathComponent == "contents" }
            .map { Fixtures.corpus + "/" + $0 }
            .sorted()
    }

    @Test func everyContentsFileLoads() {
        let files = Self.contentsFiles()
        #expect(files.count > 100, "the corpus should hold over a hundred models")
        let result = ModelLoader().load(paths: files)
        #expect(result.failures == [], "\(result.failures.map(\.description).joined(separator: "\n"))")
        #expect(result.models.count == files.count)
        #expect(result.models.allSatisfy { !$0.entities.isEmpty || $0.location.line > 0 })
    }

    @Test func folderSearchFailsOnlyOnXcode3BinaryModels() {
        let result = ModelLoader(loadsAllVersions: true).load(paths: [Fixtures.corpus])
        #expect(result.models.count >= Self.contentsFiles().count)
        for failure in result.failures {
            #expect(failure.reason == .legacyBinaryFormat, "\(failure)")
        }
    }
}

import DataModel
import Linting
import ModelGenerator
import SourceConsistency
import SwiftDataModel
import SwiftParser
import Testing

/// The benchmark's input (`SyntheticSwiftDataModel`) is valid Swift and reads as it should, so
/// the benchmark measures real work.
@Suite struct SyntheticSwiftDataModelTests {
    @Test func generatedClassesParseCleanlyAndReadIntoOneEntityEach() throws {
        let generated = SyntheticSwiftDataModel.files(classCount: 50, fileCount: 4)
        #expect(generated.count == 4)
        for file in generated {
            #expect(!Parser.parse(source: file.text).hasError, "\(file.name)")
        }
        let read = SwiftDataReader().read(files: generated.map { SwiftSourceFile(path: $0.name, text: $0.text) }, name: "Models")
        let model = try #require(read.model)
        #expect(read.problems.isEmpty && read.notes.isEmpty)
        #expect(model.entities.count == 50)
        #expect(model.entities.allSatisfy { $0.attributes.count == 8 && $0.fetchIndexes.count == 2 })
        // Every next/previous pair is paired by SwiftData's inference: nothing to report.
        #expect(model.entities.flatMap(\.relationships).allSatisfy { $0.inverseName != nil })
        #expect(LintEngine().lint(model).isEmpty)
    }
}

/// The versioned benchmark's input: 20 versions of 50 classes, a plan with 19 lightweight stages;
/// every version is a model of its own and nothing is reported.
@Suite struct SyntheticVersionedSwiftDataModelTests {
    @Test func versionedClassesReadIntoOneModelPerVersionAndLintClean() throws {
        let generated = SyntheticSwiftDataModel.versionedFiles(classCount: 1_000, versionCount: 20)
        #expect(generated.count == 21)
        for file in generated {
            #expect(!Parser.parse(source: file.text).hasError, "\(file.name)")
        }
        let read = SwiftDataVersionsReader().read(files: generated.map { SwiftSourceFile(path: $0.name, text: $0.text) },
                                                  folder: "Models")
        #expect(read.problems.isEmpty && read.notes.isEmpty, "\(read.problems) \(read.notes)")
        let versions = try #require(read.versions)
        #expect(versions.ordered.map(\.name) == (1...20).map { "SchemaV\($0)" })
        #expect(versions.versions.allSatisfy { $0.model.entities.count == 50 && $0.hashes.digest != nil })
        #expect(Set(versions.versions.compactMap(\.hashes.digest)).count == 20)
        #expect(versions.plan?.stages?.count == 19)
        #expect(LintEngine().lintSchemaVersions(versions).isEmpty)
    }
}

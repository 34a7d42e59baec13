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

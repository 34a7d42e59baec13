import Benchmark
import ModelGenerator
import SourceConsistency
import SwiftDataModel
import SwiftParser

/// The SwiftData reader against swift-syntax alone, on 1,000 synthetic `@Model` classes in 20
/// files: "Parse" is `Parser.parse` over every file, the floor any swift-syntax front end pays;
/// "Read" is `SwiftDataReader` building the model (parse, walk, entities, inverses). The issue
/// asks that Read stay within 2× of Parse.
enum SwiftDataBenchmarks {
    static let classCount = 1_000

    static func register(settings: BenchmarkSettings) {
        let configuration = Benchmark.Configuration(maxDuration: .seconds(settings.isSmoke ? 1 : 10),
                                                    maxIterations: settings.isSmoke ? 1 : 20)
        let files = SyntheticSwiftDataModel.files(classCount: classCount)
            .map { SwiftSourceFile(path: $0.name, text: $0.text) }

        Benchmark("SwiftData parse \(classCount) classes (swift-syntax)", configuration: configuration) { benchmark in
            for file in files {
                blackHole(Parser.parse(source: file.text))
            }
        }

        Benchmark("SwiftData read \(classCount) classes", configuration: configuration) { benchmark in
            let read = SwiftDataReader().read(files: files, name: "Models")
            if read.model?.entities.count != classCount { benchmark.error("expected \(classCount) entities") }
            blackHole(read)
        }
    }
}

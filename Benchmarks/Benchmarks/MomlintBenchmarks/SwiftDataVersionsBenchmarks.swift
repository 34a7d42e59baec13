import Benchmark
import Linting
import ModelGenerator
import SourceConsistency
import SwiftDataModel
import SwiftParser

/// The versions reader against swift-syntax alone, on 1,000 synthetic `@Model` classes across 20
/// `VersionedSchema`s (50 classes each, one file per version) and a plan of 19 lightweight stages
/// (`SyntheticSwiftDataModel.versionedFiles`): "Parse" is `Parser.parse` over every file; "Read"
/// is `SwiftDataVersionsReader` (parse, walk, each version's classes resolved, compiled to its
/// Core Data model and hashed, the plan's stages); "Check" adds the SwiftData migration rules
/// (`LintEngine.lintSchemaVersions`: digests compared, 19 stage diffs). Issue 37 asks that Read
/// stay within 2× of Parse.
enum SwiftDataVersionsBenchmarks {
    static let classCount = 1_000
    static let versionCount = 20

    static func register(settings: BenchmarkSettings) {
        let configuration = Benchmark.Configuration(maxDuration: .seconds(settings.isSmoke ? 1 : 10),
                                                    maxIterations: settings.isSmoke ? 1 : 20)
        let files = SyntheticSwiftDataModel.versionedFiles(classCount: classCount, versionCount: versionCount)
            .map { SwiftSourceFile(path: $0.name, text: $0.text) }

        Benchmark("SwiftData parse \(classCount) classes in \(versionCount) versions (swift-syntax)",
                  configuration: configuration) { benchmark in
            for file in files {
                blackHole(Parser.parse(source: file.text))
            }
        }

        Benchmark("SwiftData read \(classCount) classes in \(versionCount) versions", configuration: configuration) { benchmark in
            let read = SwiftDataVersionsReader().read(files: files, folder: "Models")
            if read.versions?.versions.count != versionCount { benchmark.error("expected \(versionCount) versions") }
            blackHole(read)
        }

        Benchmark("SwiftData check \(classCount) classes in \(versionCount) versions", configuration: configuration) { benchmark in
            guard let versions = SwiftDataVersionsReader().read(files: files, folder: "Models").versions else {
                benchmark.error("no versions")
                return
            }
            blackHole(LintEngine().lintSchemaVersions(versions))
        }
    }
}

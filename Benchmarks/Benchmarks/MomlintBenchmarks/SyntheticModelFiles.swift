import Foundation
import ModelGenerator

/// The synthetic models the benchmarks read, generated once per folder: a bundle already
/// holding the exact bytes the generator would write is kept, anything else is rewritten, so
/// a stale model from an older generator is never measured.
struct SyntheticModelFiles {
    let model: SyntheticModel
    let folder: String

    init(entities entityCount: Int, settings: BenchmarkSettings) {
        model = SyntheticModel(entityCount: entityCount, seed: settings.seed)
        folder = settings.modelsFolder
    }

    var bundlePath: String { model.bundlePath(inFolder: folder) }

    /// Writes the bundle unless it already holds exactly the generator's bytes.
    func generate() throws {
        let contentsPath = "\(bundlePath)/\(model.name).xcdatamodel/contents"
        if FileManager.default.contents(atPath: contentsPath) != Data(model.contents().utf8) {
            try model.write(toFolder: folder, replacing: true)
        }
    }
}

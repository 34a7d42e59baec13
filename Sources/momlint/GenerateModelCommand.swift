import ArgumentParser
import Foundation
import ModelGenerator

/// `momlint generate-model`: writes a synthetic model for benchmarks and tests. Hidden from
/// `momlint --help`, because it is a tool for working on momlint, not for linting.
struct GenerateModelCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate-model",
        abstract: "Write a synthetic, well-made Core Data model of N entities (deterministic for a seed).",
        discussion: """
            Writes DIR/<name>.xcdatamodeld with one version and its .xccurrentversion, and prints \
            the bundle's path. The same --entities and --seed always give the same bytes.
            """,
        shouldDisplay: false
    )

    /// Past this the `contents` file nears the loader's 256 MiB limit (about 1.6 KB per entity).
    static let maximumEntityCount = 100_000

    @Option(help: "How many entities the model has (1 to 100000).")
    var entities: Int

    @Option(help: "The seed: the same seed always gives the same model.")
    var seed: UInt64 = 1

    @Option(help: ArgumentHelp("The folder to write the bundle into; created if missing.", valueName: "dir"))
    var output: String

    @Option(help: "The bundle's name, without .xcdatamodeld (default: Synthetic<N>).")
    var name: String?

    @Flag(help: "Replace a bundle of the same name already in the output folder.")
    var force = false

    func validate() throws {
        guard (1...Self.maximumEntityCount).contains(entities) else {
            throw ValidationError("--entities must be between 1 and \(Self.maximumEntityCount), not \(entities)")
        }
        if let name, name.isEmpty || name.contains("/") || name.hasPrefix(".") {
            throw ValidationError("--name must be a plain file name (no '/', not starting with '.'), not '\(name)'")
        }
    }

    func run() throws {
        let model = SyntheticModel(entityCount: entities, seed: seed, name: name)
        do {
            print(try model.write(toFolder: output, replacing: force))
        } catch {
            throw ExitCode.inputError(saying: error)
        }
    }
}

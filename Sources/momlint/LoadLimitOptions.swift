import ArgumentParser
import DataModel

/// The loader's bounds a real model could conceivably reach, as `lint` options. The others
/// (nesting, attributes per tag, name length) sit far past anything Xcode writes and stay
/// fixed; docs/security.md lists every bound with its value.
struct LoadLimitOptions: ParsableArguments {
    @Option(name: .customLong("max-file-size"),
            help: ArgumentHelp("Refuse a model's contents file larger than this many bytes.", valueName: "bytes"))
    var maximumFileBytes = LoadLimits.standard.maximumFileBytes

    @Option(name: .customLong("max-elements"),
            help: ArgumentHelp("Refuse a model with more XML elements than this.", valueName: "count"))
    var maximumElements = LoadLimits.standard.maximumElements

    @Option(name: .customLong("max-entities"),
            help: ArgumentHelp("Refuse a model with more entities than this.", valueName: "count"))
    var maximumEntities = LoadLimits.standard.maximumEntities

    @Option(name: .customLong("max-properties"),
            help: ArgumentHelp("Refuse an entity with more properties than this.", valueName: "count"))
    var maximumPropertiesPerEntity = LoadLimits.standard.maximumPropertiesPerEntity

    func validate() throws {
        let values = [("--max-file-size", maximumFileBytes), ("--max-elements", maximumElements),
                      ("--max-entities", maximumEntities), ("--max-properties", maximumPropertiesPerEntity)]
        if let (option, value) = values.first(where: { $0.1 < 1 }) {
            throw ValidationError("\(option) must be a whole number above 0, not \(value)")
        }
    }

    var limits: LoadLimits {
        var limits = LoadLimits.standard
        limits.maximumFileBytes = maximumFileBytes
        limits.maximumElements = maximumElements
        limits.maximumEntities = maximumEntities
        limits.maximumPropertiesPerEntity = maximumPropertiesPerEntity
        return limits
    }
}

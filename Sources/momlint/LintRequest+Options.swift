import DataModel
import ModelDiff

extension LintRequest {
    /// `lint`'s options read without swift-argument-parser, for the plain spellings CI scripts,
    /// build phases and the SwiftPM plugin write (`--reporter json`, `--strict`, `--since=main`).
    /// ArgumentParser's first parse of `lint` reflects on every option and asks the Swift runtime
    /// about each property wrapper's type, one scan of the binary's 12,500 protocol conformances
    /// per question: 22 M instructions, more than the rest of a small model's whole lint
    /// (13 M).
    ///
    /// Nil for anything but the plain spellings: an option not listed here, a flag given twice or
    /// with a value, a single-valued option given twice, a missing or empty value, a value that
    /// starts with `-`, a limit that is not a whole number above 0. ArgumentParser then parses
    /// the command line, with its usual messages. `LintRequestTests` holds both parsers to the
    /// same answers, and every option `LintCommand` declares to a spelling here.
    init?(parsingPlainOptions arguments: [String]) {
        self.init(paths: [])
        var given: [PlainOption] = []
        var index = arguments.startIndex
        var onlyPathsFollow = false
        while index < arguments.endIndex {
            let argument = arguments[index]
            index += 1
            if onlyPathsFollow || !argument.hasPrefix("-") {
                paths.append(argument)
                continue
            }
            if argument == "--" {
                onlyPathsFollow = true
                continue
            }
            let name: Substring
            var value: String?
            if let equals = argument.firstIndex(of: "=") {
                name = argument[..<equals]
                value = String(argument[argument.index(after: equals)...])
            } else {
                name = argument[...]
            }
            guard let option = PlainOption(name), option.isRepeatable || !given.contains(option) else { return nil }
            if option.isFlag {
                guard value == nil else { return nil }
            } else {
                if value == nil, index < arguments.endIndex {
                    value = arguments[index]
                    index += 1
                }
                guard let value, !value.isEmpty, !value.hasPrefix("-") else { return nil }
            }
            given.append(option)
            guard set(option, to: value) else { return nil }
        }
    }

    /// Applies one option; false when its value is not one it takes.
    private mutating func set(_ option: PlainOption, to value: String?) -> Bool {
        let text = value ?? ""
        switch option {
        case .allVersions: allVersions = true
        case .strict: strict = true
        case .quiet: quiet = true
        case .since: since = text
        case .migrationPath:
            // As `MigrationPath`'s ExpressibleByArgument reads it; anything else is ArgumentParser's to refuse.
            guard let path = MigrationPath(rawValue: text) else { return false }
            migrationPath = path
        case .baseline: baseline = text
        case .writeBaseline: writeBaseline = text
        case .sources: sourceDirectories.append(text)
        case .swiftData: swiftDataDirectories.append(text)
        case .reporter: reporters.append(text)
        case .config: configurationFiles.append(text)
        case .maximumFileBytes, .maximumElements, .maximumEntities, .maximumProperties:
            // As `LoadLimitOptions.validate()` requires.
            guard let number = Int(text), number >= 1 else { return false }
            switch option {
            case .maximumFileBytes: limits.maximumFileBytes = number
            case .maximumElements: limits.maximumElements = number
            case .maximumEntities: limits.maximumEntities = number
            default: limits.maximumPropertiesPerEntity = number
            }
        }
        return true
    }

    /// The options of `LintCommand` and `LoadLimitOptions`, by their long names.
    enum PlainOption: CaseIterable {
        case allVersions, strict, quiet
        case since, migrationPath, baseline, writeBaseline
        case sources, swiftData, reporter, config
        case maximumFileBytes, maximumElements, maximumEntities, maximumProperties

        init?(_ name: Substring) {
            guard let option = Self.allCases.first(where: { $0.name == name }) else { return nil }
            self = option
        }

        var name: String {
            switch self {
            case .allVersions: "--all-versions"
            case .strict: "--strict"
            case .quiet: "--quiet"
            case .since: "--since"
            case .migrationPath: "--migration-path"
            case .baseline: "--baseline"
            case .writeBaseline: "--write-baseline"
            case .sources: "--sources"
            case .swiftData: "--swiftdata"
            case .reporter: "--reporter"
            case .config: "--config"
            case .maximumFileBytes: "--max-file-size"
            case .maximumElements: "--max-elements"
            case .maximumEntities: "--max-entities"
            case .maximumProperties: "--max-properties"
            }
        }

        var isFlag: Bool { self == .allVersions || self == .strict || self == .quiet }
        var isRepeatable: Bool { self == .sources || self == .swiftData || self == .reporter || self == .config }
    }
}

// The pre-commit hook's build has no SQLite (MOMLINT_HOOK_BUILD; Package.swift), so no `store`.
#if !MOMLINT_HOOK_BUILD
import ArgumentParser
import DataModel
import Foundation
import ModelDiff
import SafeFiles
import SQLiteStore
import VersionHashes

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Read a Core Data (or momlint) SQLite store, never changing it.",
        discussion: """
            Every subcommand reads the file as immutable, or a private copy of it and its -wal: the file, its -wal \
            and -shm are left byte-identical. A store is matched to a model version as Core Data matches it, by \
            the entity version hashes its metadata keeps (NSStoreModelVersionHashes; docs/version-hashes.md); \
            only a store whose metadata has none is matched by its tables and columns, and the output says so. \
            Exit codes: 0 done; 1 which-version found no matching version, or check predicts a failure; \
            2 a file or model could not be read.
            """,
        subcommands: [StoreDumpCommand.self, StoreWhichVersionCommand.self, StoreCheckCommand.self]
    )
}

extension StoreCommand {
    /// `FILE: error: MESSAGE` on one line: the path escaped, the message (whose quotes from
    /// the file are already escaped and bounded) escaped again and cut, so no line is ever
    /// megabytes long or holds a line break.
    static func errorLine(file: String, _ message: String) -> String {
        "\(PrintableText.bounded(file, limit: 1_000)): error: \(PrintableText.bounded(message, limit: 4_000))"
    }
}

extension StoreDump.Format: ExpressibleByArgument {}

struct StoreDumpCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dump",
        abstract: "Print every object of a store with its values and relationships.",
        discussion: """
            JSON: {"schemaVersion":1,"store":{…metadata…},"objects":[{"entity","id","values",\
            "relationships"}]}; dates ISO 8601, binary values {"base64": "…"}, ids Core Data's \
            x-coredata:// URIs. Given a bundle, the version whose entity version hashes equal the store's \
            is used (else the current one); rows are read by entity number, whatever name Z_PRIMARYKEY \
            keeps (a store migrated across an entity rename keeps the old one).
            """
    )


    @Argument(help: ArgumentHelp("The SQLite store file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp(
        "The model version that wrote the store: an .xcdatamodel folder, a contents file, or a bundle (the version whose hashes match the store's).",
        valueName: "model"))
    var model: String

    @Option(help: "The output format.")
    var format: StoreDump.Format = .json

    func run() throws {
        var standardError = StandardError()
        let isBundle = URL(fileURLWithPath: ModelPaths.named(model)).pathExtension == "xcdatamodeld"
        let result = ModelLoader(loadsAllVersions: isBundle).load(paths: [model])
        for failure in result.failures { print(failure, to: &standardError) }
        guard result.failures.isEmpty, let loaded = result.models.first(where: \.version.isCurrent) ?? result.models.first else {
            if result.failures.isEmpty { print("\(model): error: no model found here", to: &standardError) }
            throw ExitCode.inputError
        }
        do {
            try StoreDump.write(storeAt: file, model: loaded, versions: result.models, choosingByHashes: isBundle, format: format,
                                remark: { print("\(file): \($0)", to: &standardError) },
                                to: { bytes in try StandardOutput.write(bytes: bytes) })
        } catch let error as SQLiteStoreError {
            throw ExitCode.inputError(saying: StoreCommand.errorLine(file: file, error.message))
        } catch let error as FileAccessError {
            throw ExitCode.inputError(saying: "error: cannot write to standard output: \(error.reason)")
        }
    }
}

struct StoreWhichVersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which-version",
        abstract: "Name the version of a model bundle that wrote a store.",
        discussion: """
            Matches as Core Data does, by the entity version hashes in the store's metadata \
            (NSStoreModelVersionHashes) against each version's (docs/version-hashes.md). A store whose \
            metadata has none is matched by structure — Z_PRIMARYKEY's entity numbers and parents, tables, \
            columns and their types, join tables — and the output says so. Prints the matching version, or \
            the closest ones with how they differ.
            """
    )

    @Argument(help: ArgumentHelp("The SQLite store file.", valueName: "file"))
    var file: String

    @Argument(help: ArgumentHelp("The .xcdatamodeld bundle (every version is tried).", valueName: "bundle"))
    var bundle: String

    func run() throws {
        var standardError = StandardError()
        let result = ModelLoader(loadsAllVersions: true).load(paths: [bundle])
        for failure in result.failures { print(failure, to: &standardError) }
        guard !result.models.isEmpty else {
            if result.failures.isEmpty { print("\(bundle): error: no model version found here", to: &standardError) }
            throw ExitCode.inputError
        }
        let description: StoreFileDescription
        do {
            description = try StoreFileDescription.read(path: file)
        } catch {
            throw ExitCode.inputError(saying: StoreCommand.errorLine(file: file, error.message))
        }
        print("\(PrintableText.bounded(file, limit: 1_000)): \(description.summary)")
        let match = StoreVersionMatch(file: description, versions: result.models)
        print(match.report(bundle: bundle), terminator: "")
        if match.matches.isEmpty { throw ExitCode.findings }
    }
}

struct StoreCheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Predict what an app does when it opens a store with its bundle's current version.",
        discussion: """
            As Core Data decides it, by the entity version hashes in the store's metadata: the store \
            opens as it is (the current version hashes like it); or it is migrated from the version that \
            hashes like it, with that pair's verdict (lightweight, the mapping model found, or a failure: \
            134140 not inferable without a mapping model, 134110 a required attribute added without a \
            default while the store has rows); or it fails with 134130, no version in the bundle hashing \
            like it, and the closest version and the entities whose hashes differ are named. A store \
            whose metadata has no hashes is matched by structure, and the output says so. Versions are \
            ordered as `momlint versions` orders them. \
            JSON: {"schemaVersion":1,"store","bundle","outcome":"opens"|"migrates"|"fails","errorCode",\
            "identifiedBy","storeVersion","currentVersion","verdict","mappingModel","closestVersion",\
            "differingEntities":[{"entity","store","version"}],"summary"}. \
            Exit codes: 0 opens or migrates; 1 it would fail; 2 bad input.
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    @Argument(help: ArgumentHelp("The SQLite store file.", valueName: "store"))
    var file: String

    @Argument(help: ArgumentHelp("The app's .xcdatamodeld bundle.", valueName: "bundle"))
    var bundle: String

    @Option(help: "The output format.")
    var format: Format = .text

    @Option(name: .customLong("config"), help: ArgumentHelp(
        "A configuration file to use instead of the nearest .momlint.yml (for migration.version_order).", valueName: "file"))
    var configurationFiles: [String] = []

    func run() throws {
        let versions: BundleVersions
        let description: StoreFileDescription
        do {
            versions = try ModelVersionInputs.bundle(at: bundle, configurationFiles: configurationFiles)
        } catch {
            throw ExitCode.inputError(saying: error)
        }
        do {
            description = try StoreFileDescription.read(path: file)
        } catch {
            throw ExitCode.inputError(saying: StoreCommand.errorLine(file: file, error.message))
        }
        let check = StoreCheck(file: description, bundle: versions, mappings: ModelVersionInputs.mappingModels(beside: versions.bundlePath))
        switch format {
        case .text: print(check.text, terminator: "")
        case .json: try StandardOutput.write(bytes: Array(try check.json()))
        }
        if check.outcome == .fails { throw ExitCode.findings }
    }
}
#endif

// The pre-commit hook's build has no SQLite (MOMLINT_HOOK_BUILD; Package.swift), so no `store`.
#if !MOMLINT_HOOK_BUILD
import ArgumentParser
import DataModel
import Foundation
import SafeFiles
import SQLiteStore

struct StoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "store",
        abstract: "Read a Core Data (or momlint) SQLite store, never changing it.",
        discussion: """
            Both subcommands read the file as immutable, or a private copy of it and its -wal: the file, its -wal \
            and -shm are left byte-identical. Exit codes: 0 done; 1 which-version found no \
            matching version; 2 a file or model could not be read.
            """,
        subcommands: [StoreDumpCommand.self, StoreWhichVersionCommand.self]
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
            x-coredata:// URIs. The model must be the version that wrote the store \
            (momlint store which-version finds it).
            """
    )


    @Argument(help: ArgumentHelp("The SQLite store file.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp(
        "The model version that wrote the store: an .xcdatamodel folder, a contents file, or a bundle (its current version).",
        valueName: "model"))
    var model: String

    @Option(help: "The output format.")
    var format: StoreDump.Format = .json

    func run() throws {
        var standardError = StandardError()
        let result = ModelLoader().load(paths: [model])
        for failure in result.failures { print(failure, to: &standardError) }
        guard result.failures.isEmpty, let loaded = result.models.first else {
            if result.failures.isEmpty { print("\(model): error: no model found here", to: &standardError) }
            throw ExitCode.inputError
        }
        do {
            let store = try SQLiteObjectStore(path: file, model: loaded, access: .readOnly)
            defer { try? store.close() }
            try store.writeDump(format: format) { bytes in try StandardOutput.write(bytes: bytes) }
        } catch let error as SQLiteStoreError {
            print(StoreCommand.errorLine(file: file, error.message), to: &standardError)
            throw ExitCode.inputError
        } catch let error as FileAccessError {
            print("error: cannot write to standard output: \(error.reason)", to: &standardError)
            throw ExitCode.inputError
        }
    }
}

struct StoreWhichVersionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "which-version",
        abstract: "Name the version of a model bundle that wrote a store.",
        discussion: """
            Matches by structure — Z_PRIMARYKEY's entity numbers and parents, tables, columns \
            and their types, join tables — since Core Data's version hashes are undocumented. \
            Prints the matching version, or the closest ones with how the file differs.
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
            print(StoreCommand.errorLine(file: file, error.message), to: &standardError)
            throw ExitCode.inputError
        }
        print("\(PrintableText.bounded(file, limit: 1_000)): \(description.summary)")
        let match = StoreVersionMatch(file: description, versions: result.models)
        let matches = match.matches
        if matches.count == 1 {
            print("written by version '\(PrintableText.bounded(matches[0].model.version.name))' (\(PrintableText.bounded(matches[0].model.file, limit: 1_000)))")
            return
        }
        if matches.count > 1 {
            print("written by one of \(matches.count) structurally identical versions:")
            for candidate in matches {
                print("  '\(PrintableText.bounded(candidate.model.version.name))' (\(PrintableText.bounded(candidate.model.file, limit: 1_000)))")
            }
            return
        }
        print("no version of \(PrintableText.bounded(bundle, limit: 1_000)) matches; closest first:")
        for candidate in match.candidates.prefix(3) {
            print("  '\(PrintableText.bounded(candidate.model.version.name))': \(candidate.differences.count) difference\(candidate.differences.count == 1 ? "" : "s")")
            // A difference quotes names from the file: escaped, and cut when long.
            for difference in candidate.differences.prefix(5) { print("    - \(PrintableText.bounded(difference, limit: 1_000))") }
        }
        throw ExitCode.findings
    }
}
#endif

import ArgumentParser
import DataModel
import Foundation
import ModelExport
import SafeFiles
#if !MOMLINT_HOOK_BUILD
import SwiftDataModel
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write a model as normalized JSON, for programs that should not parse Core Data's XML.",
        discussion: """
            The JSON has every entity with its inherited attributes, relationships and uniqueness \
            constraints resolved, inverses resolved, and defaults and limits as typed values. Its \
            JSON Schema is docs/schemas/model-export.schema.json. A default or limit that cannot be \
            read as its attribute's type is left out with a warning. Exit codes: 0 written; 2 the \
            model could not be loaded or has elements the export cannot express (each reported on one line).
            """
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case json
    }

    @Argument(help: ArgumentHelp(
        "The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder or a contents file; "
            + "with --swiftdata, Swift sources.",
        valueName: "model"))
    var path: String

    @Flag(help: "Read the path as Swift sources (a folder or .swift file) whose SwiftData @Model classes form the model.")
    var swiftdata = false

    @Option(help: "The output format.")
    var format: Format = .json

    @Flag(help: "Write the JSON on one line instead of indented.")
    var compact = false

    func run() throws {
        var standardError = StandardError()
        let model = swiftdata ? try Self.swiftDataModel(at: path) : try loadModel(&standardError)
        do {
            let (exported, warnings) = try ModelExporter().export(model)
            for warning in warnings { print(warning, to: &standardError) }
            let json = try exported.jsonData(pretty: !compact)
            // Unbuffered and checked: a full disk or a closed pipe is exit 2, not a lost export.
            guard writeToStandardOutput(String(decoding: json, as: UTF8.self) + "\n") else { throw ExitCode.inputError }
        } catch let error as ModelExportError {
            throw ExitCode.inputError(saying: error)
        }
    }

    /// The model of the SwiftData `@Model` classes at `path`, or exit 2 with each problem on a line.
    static func swiftDataModel(at path: String) throws -> Model {
        #if MOMLINT_HOOK_BUILD
        throw ExitCode.inputError(saying: "\(path): error: " + GraphCommand.noSwiftDataInHookBuild)
        #else
        var standardError = StandardError()
        let read = SwiftDataReader().read(paths: [path])
        for note in read.notes { print(note, to: &standardError) }
        for problem in read.problems { print(problem, to: &standardError) }
        guard read.problems.isEmpty, let model = read.models.first else { throw ExitCode.inputError }
        return model
        #endif
    }

    private func loadModel(_ standardError: inout StandardError) throws -> Model {
        // The loader searches a plain folder for every model in it; export writes one.
        if ModelPaths.isFolderToSearch(path) {
            throw ExitCode.inputError(saying: "\(path): error: export writes one model; name an .xcdatamodeld bundle, "
                + "an .xcdatamodel folder or a contents file, not a folder to search")
        }
        let result = ModelLoader().load(paths: [path])
        for note in result.notes { print(note, to: &standardError) }
        for failure in result.failures { print(failure, to: &standardError) }
        guard result.failures.isEmpty else { throw ExitCode.inputError }
        guard let model = result.models.first else {
            throw ExitCode.inputError(saying: "\(path): error: no model found here")
        }
        return model
    }
}

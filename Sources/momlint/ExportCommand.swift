import ArgumentParser
import DataModel
import Foundation
import ModelExport

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
        "The model: an .xcdatamodeld bundle (its current version), an .xcdatamodel folder or a contents file.",
        valueName: "model"))
    var path: String

    @Option(help: "The output format.")
    var format: Format = .json

    @Flag(help: "Write the JSON on one line instead of indented.")
    var compact = false

    func run() throws {
        var standardError = StandardError()
        let result = ModelLoader().load(paths: [path])
        for note in result.notes { print(note, to: &standardError) }
        for failure in result.failures { print(failure, to: &standardError) }
        guard result.failures.isEmpty else { throw ExitCode.inputError }
        guard let model = result.models.first, result.models.count == 1 else {
            print("\(path): error: export takes one model; this path holds \(result.models.count) "
                + "(name one .xcdatamodeld bundle, .xcdatamodel folder or contents file)", to: &standardError)
            throw ExitCode.inputError
        }
        do {
            let (exported, warnings) = try ModelExporter().export(model)
            for warning in warnings { print(warning, to: &standardError) }
            FileHandle.standardOutput.write(try exported.jsonData(pretty: !compact) + Data("\n".utf8))
        } catch let error as ModelExportError {
            print(error, to: &standardError)
            throw ExitCode.inputError
        }
    }
}

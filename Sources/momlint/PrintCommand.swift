import ArgumentParser
import DataModel
import Foundation
import ModelDiff
import VersionHashes

struct PrintCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "print",
        abstract: "Print a model as stable, readable text, e.g. for git diff (a textconv driver).",
        discussion: """
            Entities and properties are sorted by name, one line each, with every schema field spelled \
            out, so a diff shows what changed and not how Xcode ordered the XML. To use it in git:
              .gitattributes:  **/*.xcdatamodel/contents diff=momlint
              git config diff.momlint.textconv "momlint print"
            The leading **/ matters: git matches a pattern that holds a slash from the folder of the \
            .gitattributes file only, so without it no bundle below the top folder would match.
            With --hashes, each entity, attribute and relationship line ends with Core Data's version hash \
            (base64, as a store's NSStoreModelVersionHashes shows it) and the model line with the digest; an \
            entity whose hash rests on a rule no real store has confirmed says which (docs/version-hashes.md). \
            Exit codes: 0 printed; 2 the model could not be read.
            """
    )

    @Argument(help: ArgumentHelp(
        "An .xcdatamodeld bundle (its current version), an .xcdatamodel folder, or a contents file (any name).",
        valueName: "model"))
    var path: String

    @Flag(help: "End each entity, attribute and relationship line with its Core Data version hash.")
    var hashes = false

    func run() throws {
        do {
            let model = try ModelVersionInputs.model(at: path)
            print(ModelPrinter.text(model, hashes: hashes ? VersionHasher.hashes(of: model) : nil), terminator: "")
        } catch {
            throw ExitCode.inputError(saying: error)
        }
    }
}

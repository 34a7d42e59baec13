import ArgumentParser
import Foundation

@main
struct Momlint: AsyncParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "momlint",
        abstract: "Lint Core Data models before they ship.",
        discussion: """
            Exit codes: 0 no error-severity finding; 1 at least one error-severity finding; \
            2 an input could not be loaded or the command line was wrong (every other input is \
            still linted and reported).
            """,
        version: version,
        subcommands: [
            LintCommand.self, RulesCommand.self, ConformanceCommand.self, ExportCommand.self, GraphCommand.self,
            GenerateModelCommand.self, DiffCommand.self, PrintCommand.self, VersionsCommand.self,
        ],
        defaultSubcommand: LintCommand.self
    )

    /// ArgumentParser's own `main`, except that a wrong command line exits with 2, the code
    /// momlint documents for it, instead of ArgumentParser's 64 (`EX_USAGE`), so scripts
    /// need to know one code for "momlint could not do what was asked".
    static func main() async {
        do {
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                var standardError = StandardError()
                print(fullMessage(for: error), to: &standardError)
                Foundation.exit(ExitCode.inputError.rawValue)
            }
            exit(withError: error)
        }
    }
}

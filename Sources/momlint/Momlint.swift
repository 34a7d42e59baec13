import ArgumentParser

@main
struct Momlint: ParsableCommand {
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
        subcommands: [LintCommand.self, GenerateModelCommand.self],
        defaultSubcommand: LintCommand.self
    )
}

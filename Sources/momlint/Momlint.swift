import ArgumentParser

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
        subcommands: [LintCommand.self, ConformanceCommand.self],
        defaultSubcommand: LintCommand.self
    )
}

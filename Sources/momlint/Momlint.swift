import ArgumentParser
import CAllocatorTuning
import Configuring
import Foundation
import LintDriver
import Linting

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
        subcommands: subcommands,
        defaultSubcommand: LintCommand.self
    )

    /// Every subcommand; the pre-commit hook's build has no SQLite, so no `store` there.
    static var subcommands: [any ParsableCommand.Type] {
        var commands: [any ParsableCommand.Type] = [
            LintCommand.self, RulesCommand.self, ConformanceCommand.self, ExportCommand.self, GraphCommand.self,
            GenerateModelCommand.self, DiffCommand.self, PrintCommand.self, VersionsCommand.self,
        ]
        #if !MOMLINT_HOOK_BUILD
        commands.append(StoreCommand.self)
        #endif
        return commands
    }

    /// ArgumentParser's own `main`, except that a wrong command line exits with 2, the code
    /// momlint documents for it, instead of ArgumentParser's 64 (`EX_USAGE`), so scripts
    /// need to know one code for "momlint could not do what was asked".
    static func main() async {
        // First, before any thread allocates: see momlint_tune_allocator.
        _ = momlint_tune_allocator()
        StandardOutputFailures.reportInsteadOfDying()
        if let word = CommandLine.arguments.dropFirst().first, let nearest = nearestSubcommand(to: word) {
            var standardError = StandardError()
            print("momlint: '\(word)' is neither a subcommand nor an existing path; did you mean 'momlint \(nearest)'?",
                  to: &standardError)
            Foundation.exit(ExitCode.inputError.rawValue)
        }
        do {
            if let lint = lintRequest(for: Array(CommandLine.arguments.dropFirst())) {
                let outcome = lint.run(toolVersion: version)
                StandardOutputFailures.exitIfLost()
                if outcome != .passed { Foundation.exit(outcome.rawValue) }
                return
            }
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let code as ExitCode where code != .validationFailure {
            // How `lint` ends with findings (1) or a failed input (2), messages printed already.
            // ArgumentParser's `exit(withError:)` would build the help generator first, to say
            // nothing, at a cost of more than half of a small model's whole lint (docs/benchmarks.md).
            StandardOutputFailures.exitIfLost()
            Foundation.exit(code.rawValue)
        } catch {
            if exitCode(for: error) == .validationFailure {
                var standardError = StandardError()
                print(fullMessage(for: error), to: &standardError)
                Foundation.exit(ExitCode.inputError.rawValue)
            }
            StandardOutputFailures.exitIfLost()
            exit(withError: error)
        }
        StandardOutputFailures.exitIfLost()
    }

    /// `momlint lint …` (or `momlint PATH…`, lint being the default) is what a pre-commit hook and
    /// CI run. Parsing it as the root command makes ArgumentParser reflect on every subcommand's
    /// options first, and reflecting on `lint`'s own options costs more than a small model's
    /// whole lint (docs/benchmarks.md, "Start-up"). So a command line of paths alone, what the
    /// pre-commit hook passes, becomes a `LintRequest` without ArgumentParser; one with options
    /// is parsed by ArgumentParser as `lint` alone. Anything that does not parse as `lint` —
    /// help, the version, completion scripts, a mistake — goes through the root (nil here), so
    /// every message stays ArgumentParser's usual one. `LintRequestTests` holds the short cut
    /// to ArgumentParser's answers.
    static func lintRequest(for arguments: [String]) -> LintRequest? {
        var lintArguments = arguments
        if lintArguments.first == LintCommand.name {
            lintArguments.removeFirst()
        } else if let first = lintArguments.first,
                  first.hasPrefix("-") || first == "help" || subcommands.contains(where: { $0._commandName == first }) {
            return nil
        }
        // `--` and anything after it, or a path that starts with `-`, are ArgumentParser's to read.
        if !lintArguments.contains(where: { $0.hasPrefix("-") }) { return LintRequest(paths: lintArguments) }
        let answeredByTheRoot = ["-h", "-help", "--help", "--version", "--generate-completion-script",
                                 "--experimental-dump-help", "--help-hidden"]
        guard !lintArguments.contains(where: { argument in
            answeredByTheRoot.contains { argument == $0 || argument.hasPrefix($0 + "=") }
        }) else { return nil }
        return (try? LintCommand.parse(lintArguments))?.request
    }

    /// `lint` is the default subcommand, so `momlint lnt` would lint a path named `lnt` and
    /// report it missing. A first word that names no subcommand and no file, but is near a
    /// subcommand's name, is a typo of that subcommand.
    ///
    /// The first words of nearly every run, `lint` and a path, are answered before any
    /// subcommand's name is asked for: `_commandName` builds the command's whole configuration,
    /// and `lint`'s lists the reporters.
    static func nearestSubcommand(to word: String) -> String? {
        guard !word.hasPrefix("-"), word != LintCommand.name, !FileManager.default.fileExists(atPath: word) else { return nil }
        let names = configuration.subcommands.map { $0._commandName } + ["help"]
        guard !names.contains(word) else { return nil }
        return NearestName.closest(to: word, among: names)
    }
}

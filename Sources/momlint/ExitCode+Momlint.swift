import ArgumentParser

/// The documented exit codes of `momlint`; README.md lists them too.
extension ExitCode {
    /// An error-severity finding (or any finding with `--strict`).
    static let findings = ExitCode(1)
    /// An input could not be loaded, or the command line or configuration was invalid.
    static let inputError = ExitCode(2)

    /// `inputError`, after printing why on standard error: `throw ExitCode.inputError(saying: …)`.
    static func inputError(saying message: Any) -> ExitCode {
        var standardError = StandardError()
        print(message, to: &standardError)
        return inputError
    }
}

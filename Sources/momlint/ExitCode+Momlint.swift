import ArgumentParser

/// The documented exit codes of `momlint`; README.md lists them too.
extension ExitCode {
    /// An error-severity finding (or any finding with `--strict`).
    static let findings = ExitCode(1)
    /// An input could not be loaded, or the command line or configuration was invalid.
    static let inputError = ExitCode(2)
}

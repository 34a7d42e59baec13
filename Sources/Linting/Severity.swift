/// How serious a finding is. Errors fail `momlint lint` (exit 1); warnings do not,
/// unless `--strict` is given.
public enum Severity: String, Hashable, Sendable, Comparable, CaseIterable, Codable {
    case warning
    case error

    public static func < (lhs: Severity, rhs: Severity) -> Bool {
        lhs == .warning && rhs == .error
    }
}

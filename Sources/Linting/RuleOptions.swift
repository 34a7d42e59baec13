/// The options a user set for one rule in `.momlint.yml`, as written: option name to scalar text.
///
/// Rules parse what they need through the typed accessors, which name the option in their
/// errors, so a wrong value reads the same whichever rule takes it.
public struct RuleOptions: Hashable, Sendable {
    public var values: [String: String]

    public init(_ values: [String: String] = [:]) {
        self.values = values
    }

    public var isEmpty: Bool { values.isEmpty }

    public func string(_ name: String) -> String? { values[name] }

    /// The option as a whole number; nil when it is not set.
    public func integer(_ name: String, in range: ClosedRange<Int> = Int.min...Int.max) throws(RuleOptionError) -> Int? {
        guard let text = values[name] else { return nil }
        guard let value = Int(text) else {
            throw RuleOptionError(option: name, problem: "expects a whole number, not '\(text)'")
        }
        guard range.contains(value) else {
            throw RuleOptionError(option: name, problem: "expects a number from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
        return value
    }

    /// The option as `true`/`false` (YAML's `yes`/`no` too); nil when it is not set.
    public func boolean(_ name: String) throws(RuleOptionError) -> Bool? {
        guard let text = values[name] else { return nil }
        switch text.lowercased() {
        case "true", "yes", "on": return true
        case "false", "no", "off": return false
        default: throw RuleOptionError(option: name, problem: "expects true or false, not '\(text)'")
        }
    }
}

/// A rule option with a value the rule cannot use.
public struct RuleOptionError: Error, Hashable, Sendable, CustomStringConvertible {
    public var option: String
    /// Lowercase, e.g. "expects a whole number, not 'many'".
    public var problem: String

    public init(option: String, problem: String) {
        self.option = option
        self.problem = problem
    }

    public var description: String { "option '\(option)' \(problem)" }
}

/// One option a configurable rule accepts, for validation and documentation.
public struct RuleOptionDescription: Hashable, Sendable {
    public var name: String
    /// One sentence, including the default.
    public var summary: String

    public init(name: String, summary: String) {
        self.name = name
        self.summary = summary
    }
}

/// A rule that takes options from `.momlint.yml`. `init()` must give the defaults, so a rule
/// behaves the same with no configuration as with an empty one.
public protocol ConfigurableRule: Rule {
    static var options: [RuleOptionDescription] { get }
    init(options: RuleOptions) throws(RuleOptionError)
}

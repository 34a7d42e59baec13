import Foundation

/// A fetch request's predicate: the text in `NSPredicate(format:)`'s syntax, as the scenario
/// wrote it, and its parsed form. A Core Data adapter hands `format` to `NSPredicate`; other
/// stores evaluate `expression` (`PredicateExpression.evaluate`), so no store needs a parser.
public struct FetchPredicate: Hashable, Sendable, Codable {
    public var format: String
    public var expression: PredicateExpression

    public init(format: String, expression: PredicateExpression) {
        self.format = format
        self.expression = expression
    }

    /// Parses `format`; throws a message saying where it stops making sense.
    public init(format: String) throws(PredicateSyntaxError) {
        var parser = PredicateParser(text: format)
        self.init(format: format, expression: try parser.parse())
    }
}

/// A predicate in the subset of Apple's predicate format language the suite uses (contract 1.4,
/// §4.11): comparisons, string operators with `[c]`/`[d]` options, `IN`, `BETWEEN`, `AND`/`OR`/
/// `NOT`, `TRUEPREDICATE`/`FALSEPREDICATE`.
public indirect enum PredicateExpression: Hashable, Sendable, Codable {
    case constant(Bool)
    case not(PredicateExpression)
    case and([PredicateExpression])
    case or([PredicateExpression])
    case comparison(PredicateComparison)

    /// Whether an object matches; `value(keyPath)` reads a key path of it (an attribute, or a
    /// path through to-one relationships; a to-one at the end reads as the destination's name
    /// or null). To test many objects, `FetchRequest.execute` compiles each pattern once.
    public func evaluate<Failure: Error>(_ value: ([String]) throws(Failure) -> AttributeValue) throws(Failure) -> Bool {
        try evaluate(value, patterns: PatternExpressions())
    }

    /// `patterns` holds the `LIKE` and `MATCHES` patterns compiled so far, for every object a
    /// fetch tests.
    func evaluate<Failure: Error>(_ value: ([String]) throws(Failure) -> AttributeValue,
                                  patterns: PatternExpressions) throws(Failure) -> Bool {
        switch self {
        case .constant(let truth):
            return truth
        case .not(let inner):
            return try !inner.evaluate(value, patterns: patterns)
        case .and(let parts):
            for part in parts { if try !part.evaluate(value, patterns: patterns) { return false } }
            return true
        case .or(let parts):
            for part in parts { if try part.evaluate(value, patterns: patterns) { return true } }
            return false
        case .comparison(let comparison):
            return try comparison.evaluate(value, patterns: patterns)
        }
    }

    /// Every key path the predicate reads, for checking them against the model.
    public var keyPaths: [[String]] {
        switch self {
        case .constant: []
        case .not(let inner): inner.keyPaths
        case .and(let parts), .or(let parts): parts.flatMap(\.keyPaths)
        case .comparison(let comparison): [comparison.left, comparison.right].compactMap(\.keyPath)
        }
    }
}

/// `left OPERATOR right`, with the string options `[c]` (case-insensitive) and `[d]`
/// (diacritic-insensitive).
public struct PredicateComparison: Hashable, Sendable, Codable {
    public enum Operator: String, Hashable, Sendable, Codable, CaseIterable {
        case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="
        case beginsWith = "BEGINSWITH", endsWith = "ENDSWITH", contains = "CONTAINS", like = "LIKE", matches = "MATCHES"
        case `in` = "IN", between = "BETWEEN"
    }

    public var left: PredicateOperand
    public var `operator`: Operator
    public var right: PredicateOperand
    public var caseInsensitive: Bool
    public var diacriticInsensitive: Bool

    public init(left: PredicateOperand, operator: Operator, right: PredicateOperand,
                caseInsensitive: Bool = false, diacriticInsensitive: Bool = false) {
        self.left = left
        self.operator = `operator`
        self.right = right
        self.caseInsensitive = caseInsensitive
        self.diacriticInsensitive = diacriticInsensitive
    }

    /// Null compares equal only to null: `x == nil` matches a null, `x != nil` a value, and an
    /// ordering or string operator never matches a null (what SQL's NULL comparisons give).
    func evaluate<Failure: Error>(_ read: ([String]) throws(Failure) -> AttributeValue,
                                  patterns: PatternExpressions) throws(Failure) -> Bool {
        let lhs = try left.values(read), rhs = try right.values(read)
        guard let first = lhs.first else { return false }
        switch `operator` {
        case .equal: return rhs.count == 1 && equal(first, rhs[0])
        case .notEqual: return rhs.count == 1 && !equal(first, rhs[0])
        case .in: return rhs.contains { equal(first, $0) }
        case .between:
            guard rhs.count == 2, first != .null else { return false }
            return ordered(first, rhs[0]).map { $0 >= 0 } == true && ordered(first, rhs[1]).map { $0 <= 0 } == true
        case .less, .lessOrEqual, .greater, .greaterOrEqual:
            guard rhs.count == 1, let order = ordered(first, rhs[0]) else { return false }
            switch `operator` {
            case .less: return order < 0
            case .lessOrEqual: return order <= 0
            case .greater: return order > 0
            default: return order >= 0
            }
        case .beginsWith, .endsWith, .contains, .like, .matches:
            guard rhs.count == 1, case .string(let text) = first, case .string(let pattern) = rhs[0] else { return false }
            let subject = folded(text), argument = folded(pattern)
            switch `operator` {
            case .beginsWith: return subject.hasPrefix(argument)
            case .endsWith: return subject.hasSuffix(argument)
            case .contains: return argument.isEmpty || subject.contains(argument)
            case .like: return patterns.wholeMatch(subject, pattern: argument, wildcardsOnly: true)
            default: return patterns.wholeMatch(subject, pattern: argument, wildcardsOnly: false)
            }
        }
    }

    private func equal(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Bool {
        if lhs == .null || rhs == .null { return lhs == rhs }
        if let left = lhs.numericValue, let right = rhs.numericValue { return left == right }
        switch (lhs, rhs) {
        case (.string(let left), .string(let right)): return folded(left) == folded(right)
        case (.uuid(let left), .uuid(let right)), (.uuid(let left), .string(let right)), (.string(let left), .uuid(let right)):
            return left.uppercased() == right.uppercased()
        default: return lhs == rhs
        }
    }

    /// The order of two non-null values of comparable kinds, nil otherwise.
    private func ordered(_ lhs: AttributeValue, _ rhs: AttributeValue) -> Int? {
        if lhs == .null || rhs == .null { return nil }
        if lhs.numericValue != nil, rhs.numericValue != nil { return SortDescriptor.compare(lhs, rhs) }
        if case .string(let left) = lhs, case .string(let right) = rhs {
            return SortDescriptor.compare(.string(folded(left)), .string(folded(right)))
        }
        return nil
    }

    private func folded(_ text: String) -> String {
        var options: String.CompareOptions = []
        if caseInsensitive { options.insert(.caseInsensitive) }
        if diacriticInsensitive { options.insert(.diacriticInsensitive) }
        return options.isEmpty ? text : text.folding(options: options, locale: nil)
    }

}

/// The regular expressions of a predicate's `LIKE` and `MATCHES` patterns, each compiled once
/// for all the objects a fetch tests. A pattern is kept by its text as the comparison folded it
/// (case and diacritics), so one read from a key path is compiled once per distinct value.
final class PatternExpressions {
    private struct Key: Hashable {
        var pattern: String
        var wildcardsOnly: Bool
    }

    /// nil for a pattern that is not a valid regular expression: it matches nothing.
    private var compiled: [Key: NSRegularExpression?] = [:]

    /// Whether the whole of `text` matches `pattern` (`MATCHES` is anchored at both ends):
    /// a regular expression, or with `wildcardsOnly` a `LIKE` pattern.
    func wholeMatch(_ text: String, pattern: String, wildcardsOnly: Bool) -> Bool {
        let key = Key(pattern: pattern, wildcardsOnly: wildcardsOnly)
        let expression: NSRegularExpression?
        if let known = compiled[key] {
            expression = known
        } else {
            let regularExpression = wildcardsOnly ? Self.regularExpression(like: pattern) : pattern
            expression = try? NSRegularExpression(pattern: "^(?:" + regularExpression + ")$", options: [.dotMatchesLineSeparators])
            compiled[key] = expression
        }
        guard let expression else { return false }
        return expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }

    /// `LIKE`'s wildcards: `*` any run of characters, `?` one character; the rest literally.
    static func regularExpression(like pattern: String) -> String {
        pattern.map { character in
            switch character {
            case "*": ".*"
            case "?": "."
            default: NSRegularExpression.escapedPattern(for: String(character))
            }
        }.joined()
    }
}

/// One side of a comparison.
public enum PredicateOperand: Hashable, Sendable, Codable {
    /// An attribute, or a path through to-one relationships (`department.name`).
    case keyPath([String])
    case value(AttributeValue)
    /// `{a, b, …}`, for `IN` and `BETWEEN`.
    case list([AttributeValue])

    var keyPath: [String]? {
        if case .keyPath(let path) = self { return path }
        return nil
    }

    func values<Failure: Error>(_ read: ([String]) throws(Failure) -> AttributeValue) throws(Failure) -> [AttributeValue] {
        switch self {
        case .keyPath(let path): return [try read(path)]
        case .value(let value): return [value]
        case .list(let values): return values
        }
    }
}

/// Why a predicate's text could not be read, with the character offset where it went wrong.
public struct PredicateSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var offset: Int
    public var message: String
    public var description: String { "\(message) (at character \(offset + 1))" }
}

/// Reads the predicate format language's common part: literals (`'text'`, `"text"`, numbers,
/// `YES`/`NO`/`TRUE`/`FALSE`, `nil`/`NULL`, `CAST(number, "NSDate")` for a date), key paths,
/// the comparison operators (`==`/`=`, `!=`/`<>`, `<`, `<=`/`=<`, `>`, `>=`/`=>`), `BEGINSWITH`,
/// `ENDSWITH`, `CONTAINS`, `LIKE`, `MATCHES` with `[c]`, `[d]`, `[cd]`, `IN {…}`,
/// `BETWEEN {low, high}`, `AND`/`&&`, `OR`/`||`, `NOT`/`!`, parentheses, `TRUEPREDICATE`,
/// `FALSEPREDICATE`. Keywords are case-insensitive, as Apple's parser reads them.
struct PredicateParser {
    private let characters: [Character]
    private var position = 0

    init(text: String) { characters = Array(text) }

    mutating func parse() throws(PredicateSyntaxError) -> PredicateExpression {
        let expression = try disjunction()
        skipSpaces()
        guard position == characters.count else { throw error("unexpected '\(String(characters[position...]))'") }
        return expression
    }

    private func error(_ message: String) -> PredicateSyntaxError { PredicateSyntaxError(offset: position, message: message) }

    private mutating func skipSpaces() { while position < characters.count, characters[position].isWhitespace { position += 1 } }

    /// Consumes `symbol` (punctuation) if it comes next.
    private mutating func symbol(_ symbol: String) -> Bool {
        skipSpaces()
        let wanted = Array(symbol)
        guard position + wanted.count <= characters.count, Array(characters[position..<position + wanted.count]) == wanted
        else { return false }
        position += wanted.count
        return true
    }

    /// Consumes the word `word` (case-insensitive) if it comes next as a whole word.
    private mutating func keyword(_ word: String) -> Bool {
        skipSpaces()
        let start = position
        var end = position
        while end < characters.count, characters[end].isLetter || characters[end].isNumber || characters[end] == "_" { end += 1 }
        guard end > start, String(characters[start..<end]).uppercased() == word else { return false }
        position = end
        return true
    }

    private mutating func disjunction() throws(PredicateSyntaxError) -> PredicateExpression {
        var parts = [try conjunction()]
        while keyword("OR") || symbol("||") { parts.append(try conjunction()) }
        return parts.count == 1 ? parts[0] : .or(parts)
    }

    private mutating func conjunction() throws(PredicateSyntaxError) -> PredicateExpression {
        var parts = [try negation()]
        while keyword("AND") || symbol("&&") { parts.append(try negation()) }
        return parts.count == 1 ? parts[0] : .and(parts)
    }

    private mutating func negation() throws(PredicateSyntaxError) -> PredicateExpression {
        if keyword("NOT") { return .not(try negation()) }
        skipSpaces()
        if position + 1 < characters.count, characters[position] == "!", characters[position + 1] != "=" {
            position += 1
            return .not(try negation())
        }
        if symbol("(") {
            let inner = try disjunction()
            guard symbol(")") else { throw error("expected ')'") }
            return inner
        }
        if keyword("TRUEPREDICATE") { return .constant(true) }
        if keyword("FALSEPREDICATE") { return .constant(false) }
        return .comparison(try comparison())
    }

    private mutating func comparison() throws(PredicateSyntaxError) -> PredicateComparison {
        let left = try operand()
        let op = try comparisonOperator()
        var caseInsensitive = false, diacriticInsensitive = false
        if symbol("[") {
            skipSpaces()
            while position < characters.count, characters[position] != "]" {
                switch characters[position].lowercased() {
                case "c": caseInsensitive = true
                case "d": diacriticInsensitive = true
                case "n": break
                default: throw error("unknown string option '\(characters[position])'; expected c, d or n")
                }
                position += 1
            }
            guard symbol("]") else { throw error("expected ']'") }
        }
        let right: PredicateOperand
        switch op {
        case .in, .between:
            right = .list(try list())
            if op == .between, case .list(let bounds) = right, bounds.count != 2 {
                throw error("BETWEEN needs {low, high}")
            }
        default:
            right = try operand()
        }
        return PredicateComparison(left: left, operator: op, right: right,
                                   caseInsensitive: caseInsensitive, diacriticInsensitive: diacriticInsensitive)
    }

    private mutating func comparisonOperator() throws(PredicateSyntaxError) -> PredicateComparison.Operator {
        let symbols: [(String, PredicateComparison.Operator)] = [
            ("==", .equal), ("!=", .notEqual), ("<>", .notEqual), ("<=", .lessOrEqual), ("=<", .lessOrEqual),
            (">=", .greaterOrEqual), ("=>", .greaterOrEqual), ("=", .equal), ("<", .less), (">", .greater),
        ]
        for (text, op) in symbols where symbol(text) { return op }
        for op in [PredicateComparison.Operator.beginsWith, .endsWith, .contains, .like, .matches, .in, .between]
        where keyword(op.rawValue) { return op }
        throw error("expected a comparison operator (==, !=, <, <=, >, >=, BEGINSWITH, ENDSWITH, CONTAINS, LIKE, MATCHES, IN, BETWEEN)")
    }

    private mutating func list() throws(PredicateSyntaxError) -> [AttributeValue] {
        guard symbol("{") else { throw error("expected '{'") }
        var values: [AttributeValue] = []
        if symbol("}") { return values }
        repeat {
            guard case .value(let value) = try operand() else { throw error("a list holds literal values only") }
            values.append(value)
        } while symbol(",")
        guard symbol("}") else { throw error("expected '}'") }
        return values
    }

    private mutating func operand() throws(PredicateSyntaxError) -> PredicateOperand {
        skipSpaces()
        guard position < characters.count else { throw error("expected a key path or a value") }
        let character = characters[position]
        if character == "'" || character == "\"" { return .value(.string(try quoted())) }
        if character.isNumber || character == "-" || character == "+" { return .value(try number()) }
        for (word, value) in [("YES", AttributeValue.bool(true)), ("TRUE", .bool(true)), ("NO", .bool(false)),
                              ("FALSE", .bool(false)), ("NIL", .null), ("NULL", .null)] where keyword(word) {
            return .value(value)
        }
        if keyword("CAST") {
            guard symbol("("), case .value(let seconds) = try operand(), let number = seconds.numericValue, symbol(",")
            else { throw error("expected CAST(<seconds since 2001>, \"NSDate\")") }
            skipSpaces()
            guard position < characters.count, characters[position] == "'" || characters[position] == "\"",
                  try quoted() == "NSDate", symbol(")") else { throw error("only CAST(<number>, \"NSDate\") is supported") }
            return .value(.date(secondsSinceReferenceDate: number))
        }
        var path: [String] = []
        repeat {
            skipSpaces()
            let start = position
            while position < characters.count,
                  characters[position].isLetter || characters[position].isNumber || characters[position] == "_" { position += 1 }
            guard position > start, !characters[start].isNumber else { throw error("expected a key path or a value") }
            path.append(String(characters[start..<position]))
        } while position < characters.count && characters[position] == "." && { position += 1; return true }()
        return .keyPath(path)
    }

    private mutating func quoted() throws(PredicateSyntaxError) -> String {
        let quote = characters[position]
        position += 1
        var text = ""
        while position < characters.count, characters[position] != quote {
            if characters[position] == "\\", position + 1 < characters.count { position += 1 }
            text.append(characters[position])
            position += 1
        }
        guard position < characters.count else { throw error("unterminated string") }
        position += 1
        return text
    }

    private mutating func number() throws(PredicateSyntaxError) -> AttributeValue {
        let start = position
        position += 1
        while position < characters.count, characters[position].isNumber || characters[position] == "." || characters[position] == "e"
            || characters[position] == "E" { position += 1 }
        let text = String(characters[start..<position])
        if let whole = Int64(text) { return .integer(whole) }
        if let real = Double(text) { return .double(real) }
        throw PredicateSyntaxError(offset: start, message: "'\(text)' is not a number")
    }
}

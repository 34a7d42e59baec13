import Linting

/// A Mermaid entity-relationship diagram (`erDiagram`) of an `EntityGraph`, which GitHub renders
/// in Markdown. https://mermaid.js.org/syntax/entityRelationshipDiagram.html
///
/// - Entities list their attributes (`String title "optional"`).
/// - One line per relationship pair: a relationship and its inverse are one line labelled
///   `books: Cascade / author: Nullify` (`(its own inverse)` for one like `Person.friends`); a
///   relationship without an inverse is a line of its own, marked `(no inverse)`, and so is one
///   whose inverse names another relationship, marked `(one-sided inverse)`.
/// - Crow's-foot marks give each end's cardinality: `|o`/`o|` zero or one, `||` exactly one,
///   `}o`/`o{` zero or more, `}|`/`|{` one or more. A relationship that may be empty (optional,
///   or a to-many without a minimum it must keep) starts at zero. The far end of a relationship
///   without an inverse is unconstrained: zero or more.
/// - Inheritance is a dotted line `Sub |o..|| Parent : "is a"`: each sub-entity object is exactly
///   one parent object.
///
/// Findings are written, not coloured. `style` and `classDef` exist for ER diagrams only in
/// recent Mermaid releases; a renderer on an older one (GitHub's has lagged behind, and Typora
/// rejected them in 2025, typora/typora-issues#6359) refuses the whole diagram. So a flagged
/// attribute's comment names its severity and rules (`"error: default_value_invalid"`), a
/// flagged relationship's label ends in `[warning: no_action_delete_rule]`, findings about an
/// entity itself are a `momlint` row in its box, and findings about the model are `%%` comments.
///
/// Names stay readable by every release where they can: an entity whose name is not a plain word
/// (or is a word the ER lexer reserves, such as `One` or `To`) is quoted, which needs Mermaid 10.5;
/// attribute names and types that are not words have `_` for what Mermaid cannot read.
public enum MermaidGraph {
    public static func render(_ graph: EntityGraph) -> String {
        var lines = ["%% \(graph.name): entity-relationship diagram by momlint", "erDiagram"]
        let names = EntityNames(graph.nodes)
        for node in graph.nodes {
            var rows: [String] = []
            if !node.isInModel { rows.append("momlint missing \"\(escaped("not in the model"))\"") }
            if node.isAbstract { rows.append("momlint abstract \"\(escaped("abstract entity"))\"") }
            if let severity = node.highlight {
                rows.append("momlint \(severity.rawValue) \"\(escaped(node.ruleIDs.joined(separator: ", ")))\"")
            }
            for attribute in node.attributes {
                var comment: [String] = []
                if attribute.isOptional { comment.append("optional") }
                if let severity = attribute.highlight {
                    comment.append("\(severity.rawValue): \(attribute.ruleIDs.joined(separator: ", "))")
                }
                let name = attributeWord(attribute.name)
                rows.append("\(attributeWord(attribute.type.replacing(" ", with: ""))) \(name)"
                            + (comment.isEmpty ? "" : " \"\(escaped(comment.joined(separator: "; ")))\""))
            }
            lines.append("    \(names[node.id]) {")
            lines += rows.map { "        \($0)" }
            lines.append("    }")
        }
        for (index, edge) in graph.edges.enumerated() {
            switch edge.kind {
            case .inheritance:
                lines.append("    \(names[edge.from]) |o..|| \(names[edge.to]) : \"is a\"")
            case .relationship(_, let isToMany, _):
                if let inverse = edge.inverseEdge {
                    // Drawn once, from the side declared first.
                    guard index <= inverse else { continue }
                    let other = graph.edges[inverse]
                    guard case .relationship(_, let otherIsToMany, _) = other.kind else { continue }
                    let label = index == inverse
                        ? relationshipLabel(edge) + " (its own inverse)"
                        : relationshipLabel(edge) + " / " + relationshipLabel(other)
                    lines.append("    \(names[edge.from]) \(leftMark(toMany: otherIsToMany, mayBeEmpty: other.mayBeEmpty))--"
                                 + "\(rightMark(toMany: isToMany, mayBeEmpty: edge.mayBeEmpty)) \(names[edge.to]) : \"\(escaped(label))\"")
                } else {
                    let label = relationshipLabel(edge) + (edge.namesInverse ? " (one-sided inverse)" : " (no inverse)")
                    lines.append("    \(names[edge.from]) }o--\(rightMark(toMany: isToMany, mayBeEmpty: edge.mayBeEmpty)) "
                                 + "\(names[edge.to]) : \"\(escaped(label))\"")
                }
            }
        }
        for finding in graph.modelFindings {
            lines.append("    %% \(finding.severity.rawValue): \(finding.message.replacing("\n", with: " ")) (\(finding.ruleID))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `books: Cascade`, with the findings about it: `editor: No Action [warning: no_action_delete_rule]`.
    private static func relationshipLabel(_ edge: EntityGraph.Edge) -> String {
        guard case .relationship(let name, _, let deleteRule) = edge.kind else { return edge.label }
        var label = "\(name): \(deleteRule.xmlName)"
        if let severity = edge.highlight { label += " [\(severity.rawValue): \(edge.ruleIDs.joined(separator: ", "))]" }
        return label
    }

    /// The mark at the left entity, read as "how many of the left per right".
    private static func leftMark(toMany: Bool, mayBeEmpty: Bool) -> String {
        switch (toMany, mayBeEmpty) {
        case (false, true): "|o"
        case (false, false): "||"
        case (true, true): "}o"
        case (true, false): "}|"
        }
    }

    /// The mark at the right entity, read as "how many of the right per left".
    private static func rightMark(toMany: Bool, mayBeEmpty: Bool) -> String {
        switch (toMany, mayBeEmpty) {
        case (false, true): "o|"
        case (false, false): "||"
        case (true, true): "o{"
        case (true, false): "|{"
        }
    }

    /// True for a name every Mermaid release reads as a bare word: an ASCII letter, then ASCII
    /// letters, digits, `_` or `-` (older releases accept nothing else,
    /// https://github.com/mermaid-js/mermaid/issues/4775).
    static func isPlainWord(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic else { return false }
        return text.unicodeScalars.allSatisfy(isWordCharacter)
    }

    /// An ASCII letter or digit, `_` or `-`.
    private static func isWordCharacter(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar))) || scalar == "_" || scalar == "-"
    }

    /// Words the ER lexer takes as keywords (case-insensitively) when they stand alone, so an
    /// entity of that name must be quoted (https://github.com/mermaid-js/mermaid/issues/7093).
    static let entityKeywords: Set<String> = [
        "one", "many", "to", "u", "only", "zero", "optionally", "class", "classdef", "style", "direction",
        "erdiagram", "title", "acctitle", "accdescr",
    ]

    /// An attribute's type or name as a bare word: characters Mermaid cannot read become `_`, a
    /// first character that is not a letter gets `a` before it, and a name the lexer reads as a
    /// key (`PK`, `FK`, `UK`) gets `_` after it.
    static func attributeWord(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            output.unicodeScalars.append(isWordCharacter(scalar) ? scalar : "_")
        }
        guard let first = output.unicodeScalars.first else { return "unnamed" }
        if !(first.isASCII && first.properties.isAlphabetic) { output = "a" + output }
        if ["pk", "fk", "uk"].contains(output.lowercased()) { output += "_" }
        return output
    }

    /// An entity's name: bare when it is a plain word and no keyword, otherwise quoted (which
    /// Mermaid 10.5 and later read), with the characters a quoted name cannot hold made `_`.
    static func entityName(_ text: String) -> String {
        if isPlainWord(text) && !entityKeywords.contains(text.lowercased()) { return text }
        var output = ""
        for scalar in text.unicodeScalars {
            let isForbidden = scalar == "\"" || scalar == "%" || scalar == "\\" || scalar.properties.generalCategory == .control
            output.unicodeScalars.append(isForbidden ? "_" : scalar)
        }
        return "\"\(output.isEmpty ? "_" : output)\""
    }

    /// A quoted label or comment ends at `"` and at a line break, `%%` would start a comment in
    /// older releases, and an ER diagram does not decode entity codes there: `"` becomes `'`,
    /// `%` becomes `_` and line breaks spaces.
    private static func escaped(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "\"": output += "'"
            case "%": output += "_"
            case "\n", "\r", "\r\n": output += " "
            default: output.append(character)
            }
        }
        return output
    }

    /// Each node's name in the diagram (`entityName`), unique even when two names differ only in
    /// the characters that were rewritten.
    private struct EntityNames {
        private var byID: [String: String] = [:]

        init(_ nodes: [EntityGraph.Node]) {
            var taken = Set<String>()
            for node in nodes {
                var name = MermaidGraph.entityName(node.name)
                if taken.contains(name) {
                    let isQuoted = name.hasPrefix("\"")
                    let stem = isQuoted ? String(name.dropFirst().dropLast()) : name
                    var suffix = 2
                    func candidate() -> String { isQuoted ? "\"\(stem)_\(suffix)\"" : "\(stem)_\(suffix)" }
                    while taken.contains(candidate()) { suffix += 1 }
                    name = candidate()
                }
                taken.insert(name)
                byID[node.id] = name
            }
        }

        subscript(id: String) -> String { byID[id] ?? id }
    }
}

import Linting

/// A Mermaid entity-relationship diagram (`erDiagram`) of an `EntityGraph`, which GitHub renders
/// in Markdown. https://mermaid.js.org/syntax/entityRelationshipDiagram.html
///
/// - Entities list their attributes (`String title "optional"`).
/// - One line per relationship pair: a relationship and its inverse are one line labelled
///   `books: Cascade / author: Nullify` (`(its own inverse)` for one like `Person.friends`); a
///   relationship without an inverse (or whose inverse does not name it back) is a line of its
///   own, marked `(no inverse)`.
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
                let name = identifier(attribute.name, fallback: "attribute")
                rows.append("\(identifier(attribute.type.replacing(" ", with: ""), fallback: "Unknown")) \(name)"
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
                    let label = relationshipLabel(edge) + " (no inverse)"
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

    /// Mermaid's entity and attribute names are words (letters, digits, `_`, `-`); a name from
    /// the model that is not one is rewritten with `_` so the diagram still parses.
    static func identifier(_ text: String, fallback: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            let isWordCharacter = (scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)))
                || scalar == "_" || scalar == "-"
            output.unicodeScalars.append(isWordCharacter ? scalar : "_")
        }
        guard let first = output.unicodeScalars.first else { return fallback }
        return first.properties.isAlphabetic || first == "_" ? output : "_" + output
    }

    /// A quoted label or comment ends at `"` and at a line break, and an ER diagram does not
    /// decode entity codes there, so `"` becomes `'` and line breaks spaces.
    private static func escaped(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "\"": output += "'"
            case "\n", "\r", "\r\n": output += " "
            default: output.append(character)
            }
        }
        return output
    }

    /// Each node's name in the diagram: the entity name made a Mermaid word, unique even when two
    /// names differ only in the characters that were rewritten.
    private struct EntityNames {
        private var byID: [String: String] = [:]

        init(_ nodes: [EntityGraph.Node]) {
            var taken = Set<String>()
            for node in nodes {
                var name = MermaidGraph.identifier(node.name, fallback: "Entity")
                if taken.contains(name) {
                    var suffix = 2
                    while taken.contains("\(name)_\(suffix)") { suffix += 1 }
                    name = "\(name)_\(suffix)"
                }
                taken.insert(name)
                byID[node.id] = name
            }
        }

        subscript(id: String) -> String { byID[id] ?? id }
    }
}

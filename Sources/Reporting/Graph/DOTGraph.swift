import Linting

/// A Graphviz DOT digraph of an `EntityGraph`: `dot -Tsvg` turns it into a picture. Entities
/// are boxes listing their attributes; to-many relationships end in a crow's foot; parent
/// entities are reached by dashed arrows; findings are drawn red (errors) and orange (warnings).
/// https://graphviz.org/doc/info/lang.html
public enum DOTGraph {
    public static func render(_ graph: EntityGraph) -> String {
        var lines = [
            "// \(graph.name): entity-relationship graph by momlint",
            "digraph \(quoted(graph.name)) {",
            "    rankdir=LR;",
            "    node [shape=box, style=\"rounded,filled\", fillcolor=\"#ffffff\", fontname=\"Helvetica\"];",
            "    edge [fontname=\"Helvetica\", fontsize=10];",
        ]
        for node in graph.nodes {
            // `\l` ends a left-aligned line; the title stays centred.
            let label = escapedLabel(node.title) + "\\n" + node.attributes.map { escapedLabel($0.label) + "\\l" }.joined()
            var attributes = ["label=\"\(label)\""]
            if let severity = node.worstSeverity {
                attributes += ["color=\"\(GraphColors.stroke(severity))\"", "fillcolor=\"\(GraphColors.fill(severity))\"", "penwidth=2"]
            }
            if !node.isInModel { attributes.append("style=\"rounded,dashed\"") }
            lines.append("    \(node.id) [\(attributes.joined(separator: ", "))];")
        }
        for edge in graph.edges {
            var attributes = ["label=\"\(escapedLabel(edge.label))\""]
            switch edge.kind {
            case .inheritance: attributes += ["style=dashed", "arrowhead=empty"]
            case .relationship(_, let isToMany, _): attributes.append("arrowhead=\(isToMany ? "crow" : "normal")")
            }
            if let severity = edge.highlight {
                attributes += ["color=\"\(GraphColors.stroke(severity))\"", "fontcolor=\"\(GraphColors.stroke(severity))\"", "penwidth=2"]
            }
            lines.append("    \(edge.from) -> \(edge.to) [\(attributes.joined(separator: ", "))];")
        }
        for finding in graph.modelFindings {
            lines.append("    // \(finding.severity.rawValue): \(finding.message.replacing("\n", with: " ")) (\(finding.ruleID))")
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }

    private static func quoted(_ text: String) -> String {
        "\"\(escapedLabel(text))\""
    }

    /// Inside a DOT string only `"` and `\` need escaping; line breaks become spaces.
    private static func escapedLabel(_ text: String) -> String {
        var output = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n", "\r": output += " "
            default: output.unicodeScalars.append(scalar)
            }
        }
        return output
    }
}

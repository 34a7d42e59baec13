import Linting

/// A Mermaid flowchart of an `EntityGraph`, which GitHub renders in Markdown: entities as
/// boxes listing their attributes, one arrow per relationship labelled with its delete rule,
/// dashed arrows to parent entities, findings in red (errors) and orange (warnings).
/// https://mermaid.js.org/syntax/flowchart.html
public enum MermaidGraph {
    public static func render(_ graph: EntityGraph) -> String {
        var lines = ["%% \(graph.name): entity-relationship graph by momlint", "flowchart LR"]
        for node in graph.nodes {
            let body = [node.title] + node.attributes.map(\.label)
            lines.append("    \(node.id)[\"\(body.map(escaped).joined(separator: "<br/>"))\"]")
        }
        var linkStyles: [String] = []
        for (index, edge) in graph.edges.enumerated() {
            switch edge.kind {
            case .inheritance:
                lines.append("    \(edge.from) -.->|\"\(escaped(edge.label))\"| \(edge.to)")
            case .relationship(_, let isToMany, _):
                lines.append("    \(edge.from) \(isToMany ? "==>" : "-->")|\"\(escaped(edge.label))\"| \(edge.to)")
            }
            if let severity = edge.highlight {
                linkStyles.append("    linkStyle \(index) stroke:\(GraphColors.stroke(severity)),stroke-width:3px,color:\(GraphColors.stroke(severity))")
            }
        }
        lines += linkStyles
        for severity in [Severity.error, .warning] {
            lines.append("    classDef momlint\(severity.rawValue.capitalized) fill:\(GraphColors.fill(severity)),stroke:\(GraphColors.stroke(severity)),stroke-width:3px,color:#000")
            let flagged = graph.nodes.filter { $0.worstSeverity == severity }
            if !flagged.isEmpty {
                lines.append("    class \(flagged.map(\.id).joined(separator: ",")) momlint\(severity.rawValue.capitalized)")
            }
        }
        for finding in graph.modelFindings {
            lines.append("    %% \(finding.severity.rawValue): \(finding.message) (\(finding.ruleID))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// Mermaid reads entity codes (`#quot;`) inside quoted labels; `<`/`>` would be HTML.
    private static func escaped(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "\"": output += "#quot;"
            case "<": output += "#lt;"
            case ">": output += "#gt;"
            case "#": output += "#35;"
            case "\n": output += " "
            default: output.append(character)
            }
        }
        return output
    }
}

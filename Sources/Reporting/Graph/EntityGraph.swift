import DataModel
import Linting

/// A model as a diagram: entities as nodes (with their attributes), relationships and
/// inheritance as edges, each marked with the worst severity of the findings about it.
/// Renderers (`MermaidGraph`, `DOTGraph`) only lay this out as text.
public struct EntityGraph: Sendable {
    public struct Node: Sendable {
        /// A stable identifier for the diagram (`e0`, `e1`, …): entity names need no escaping then.
        public var id: String
        public var name: String
        public var isAbstract: Bool
        /// False for a destination or parent the model names but does not have.
        public var isInModel: Bool
        public var attributes: [AttributeLine]
        public var highlight: Severity?
        /// Rule ids of the findings about the entity itself or its fetched properties.
        public var ruleIDs: [String] = []
    }

    public struct AttributeLine: Sendable {
        public var name: String
        public var type: String
        public var isOptional: Bool
        /// Rule ids of the findings about this attribute, for the label.
        public var ruleIDs: [String]
        public var highlight: Severity?
    }

    public struct Edge: Sendable {
        public enum Kind: Sendable {
            case relationship(name: String, isToMany: Bool, deleteRule: DeleteRule)
            case inheritance
        }

        public var from: String
        public var to: String
        public var kind: Kind
        public var highlight: Severity?
        /// For a relationship: whether it may be empty (optional, or a to-many without a
        /// minimum it must keep) — what the cardinality marks of an ER diagram show.
        public var mayBeEmpty = true
        /// For a relationship: the index in `edges` of its inverse, when the two name each other
        /// (its own index for a relationship that is its own inverse, like `Person.friends`). A
        /// pair is one line in an entity-relationship diagram.
        public var inverseEdge: Int?
        /// Rule ids of the findings about this relationship, for labels that cannot be coloured.
        public var ruleIDs: [String] = []
        /// For a relationship: whether it names an inverse (which may not name it back).
        public var namesInverse = false
    }

    public var name: String
    public var nodes: [Node]
    public var edges: [Edge]
    /// Findings about the model as a whole, which no node or edge can show.
    public var modelFindings: [Finding]

    public init(model: Model, findings: [Finding]) {
        name = model.version.name.isEmpty ? model.file : model.version.name
        var worst: [String: Severity] = [:]  // "Entity" or "Entity.property"
        var rulesByKey: [String: [String]] = [:]
        var modelFindings: [Finding] = []
        for finding in findings {
            guard let entity = finding.entityName else {
                modelFindings.append(finding)
                continue
            }
            let key = finding.propertyName.map { "\(entity).\($0)" } ?? entity
            worst[key] = max(worst[key] ?? finding.severity, finding.severity)
            rulesByKey[key, default: []].append(finding.ruleID)
        }
        self.modelFindings = modelFindings

        var nodes: [Node] = []
        var idByName: [String: String] = [:]
        func nodeID(for entityName: String, inModel: Bool) -> String {
            if let id = idByName[entityName] { return id }
            let id = "e\(nodes.count)"
            idByName[entityName] = id
            nodes.append(Node(id: id, name: entityName, isAbstract: false, isInModel: inModel, attributes: [],
                              highlight: worst[entityName], ruleIDs: rulesByKey[entityName] ?? []))
            return id
        }
        for entity in model.entities where idByName[entity.name] == nil {
            let id = nodeID(for: entity.name, inModel: true)
            let index = nodes.firstIndex { $0.id == id }!
            nodes[index].isAbstract = entity.isAbstract
            nodes[index].attributes = entity.attributes.map { attribute in
                let key = "\(entity.name).\(attribute.name)"
                // A SwiftData model's attributes show their Swift type (`Int`, not Integer 64),
                // without the `?` the optional marker already shows.
                let swiftType = model.origin == .swiftData
                    ? attribute.xmlAttributes["swiftType"].map { $0.hasSuffix("?") ? String($0.dropLast()) : $0 } : nil
                return AttributeLine(name: attribute.name, type: swiftType ?? attribute.attributeType?.xmlName ?? "?",
                                     isOptional: attribute.isOptional, ruleIDs: rulesByKey[key] ?? [],
                                     highlight: worst[key])
            }
            // A finding about a fetched property shows on its entity: it has no edge.
            for fetched in entity.fetchedProperties {
                let key = "\(entity.name).\(fetched.name)"
                if let severity = worst[key] {
                    nodes[index].highlight = max(nodes[index].highlight ?? severity, severity)
                    nodes[index].ruleIDs += rulesByKey[key] ?? []
                }
            }
        }
        var edges: [Edge] = []
        var edgeByPosition: [RelationshipPosition: Int] = [:]
        for (entityIndex, entity) in model.entities.enumerated() {
            let from = idByName[entity.name]!
            if let parent = entity.parentEntityName {
                edges.append(Edge(from: from, to: nodeID(for: parent, inModel: model.entity(named: parent) != nil),
                                  kind: .inheritance, highlight: nil))
            }
            for (relationshipIndex, relationship) in entity.relationships.enumerated() {
                let destination = relationship.destinationEntityName ?? "?"
                let key = "\(entity.name).\(relationship.name)"
                var edge = Edge(
                    from: from, to: nodeID(for: destination, inModel: model.entity(named: destination) != nil),
                    kind: .relationship(name: relationship.name, isToMany: relationship.isToMany,
                                        deleteRule: relationship.deletionRule),
                    highlight: worst[key])
                // An empty optional to-many passes validation, and so does a required one
                // without a minimum (docs/coredata-semantics.md §2 Checks).
                edge.mayBeEmpty = relationship.isOptional || (relationship.isToMany && (relationship.minCount ?? 0) == 0)
                edge.ruleIDs = rulesByKey[key] ?? []
                edge.namesInverse = relationship.inverseName != nil
                edgeByPosition[RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)] = edges.count
                edges.append(edge)
            }
        }
        // Pair each relationship with its inverse when the two name each other.
        for (position, index) in edgeByPosition {
            guard let inverse = model.inversePosition(of: position),
                  model.inversePosition(of: inverse) == position, let inverseIndex = edgeByPosition[inverse]
            else { continue }
            edges[index].inverseEdge = inverseIndex
        }
        self.nodes = nodes
        self.edges = edges
    }
}

/// The colours both renderers use: red for errors, orange for warnings.
enum GraphColors {
    static func stroke(_ severity: Severity) -> String {
        switch severity {
        case .error: "#d00000"
        case .warning: "#ff8c00"
        }
    }

    static func fill(_ severity: Severity) -> String {
        switch severity {
        case .error: "#ffe5e5"
        case .warning: "#fff1e0"
        }
    }
}

extension EntityGraph.AttributeLine {
    /// `title: String?`, with the rules that flag it: `pages: Integer 16 [default_value_invalid]`.
    public var label: String {
        "\(name): \(type)\(isOptional ? "?" : "")" + (ruleIDs.isEmpty ? "" : " [\(ruleIDs.joined(separator: ", "))]")
    }
}

extension EntityGraph.Node {
    /// The colour of the box: the worst finding about the entity or any attribute it lists.
    public var worstSeverity: Severity? {
        ([highlight] + attributes.map(\.highlight)).compactMap { $0 }.max()
    }

    public var title: String {
        (isAbstract ? "\(name) (abstract)" : name) + (isInModel ? "" : " (not in model)")
    }
}

extension EntityGraph.Edge {
    /// `books: to-many, Cascade`.
    public var label: String {
        switch kind {
        case .relationship(let name, let isToMany, let deleteRule):
            "\(name): \(isToMany ? "to-many" : "to-one"), \(deleteRule.xmlName)"
        case .inheritance:
            "inherits"
        }
    }
}

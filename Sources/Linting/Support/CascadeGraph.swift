import DataModel

/// The graph along which deletes propagate, built once per model in linear time.
///
/// Inheritance makes "deleting a D" mean "deleting a D or any of its sub-entities", and a deleted
/// object runs the rules of its own entity and of every ancestor. Expanding that directly would
/// add an edge per (relationship, sub-entity) pair, which is quadratic in a wide hierarchy. Instead
/// each entity has three nodes:
/// - `kind(E)`: an object whose relationship type is E, so E or any descendant;
/// - `exact(E)`: an object whose entity is E;
/// - `declared(E)`: the delete rules declared on E or an ancestor, which such an object runs.
///
/// Edges: `kind(E) -> exact(E)`, `kind(E) -> kind(child)`, `exact(E) -> declared(E)`,
/// `declared(E) -> declared(parent)`, and for each relationship `r` that E declares with the
/// followed delete rule, `declared(E) -r-> kind(destination)`. Entities whose parent chain is
/// broken or cyclic get no hierarchy edges (`invalid_parent_entity` reports them).
struct CascadeGraph {
    struct Edge {
        var target: Int
        /// The relationship the edge follows; nil for hierarchy edges.
        var relationship: Int?
    }

    let entityCount: Int
    /// Relationships the graph follows, indexed by `Edge.relationship`.
    let relationships: [DeclaredRelationship]
    /// The entity index each relationship is declared on.
    let sourceEntity: [Int]
    /// The `kind` node each relationship leads to.
    let destinationNode: [Int]
    /// Each node's outgoing edges, in the order they were added.
    let edges: Adjacency<Edge>

    func kind(_ entity: Int) -> Int { entity }
    func exact(_ entity: Int) -> Int { entityCount + entity }
    func declared(_ entity: Int) -> Int { 2 * entityCount + entity }
    var nodeCount: Int { 3 * entityCount }

    /// - Parameter follows: which relationships carry deletes (Cascade, usually).
    init(model: Model, follows: (RelationshipTraits) -> Bool) {
        let count = model.entities.count
        // The model's tables: parents and destinations by index (the first entity of a name, as
        // `entity(named:)` finds it), so only followed relationships are ever visited.
        let parent: [Int?] = (0..<count).map(model.parentIndex(ofEntityAt:))
        let hasSoundLineage = Self.soundLineages(parent: parent)

        var edges = Adjacency<Edge>.Builder(nodeCount: 3 * count)
        for index in 0..<count {
            edges.add(from: index, Edge(target: count + index))                // kind -> exact
            edges.add(from: count + index, Edge(target: 2 * count + index))    // exact -> declared
            if hasSoundLineage[index], let parentIndex = parent[index] {
                edges.add(from: parentIndex, Edge(target: index))                          // kind(parent) -> kind(child)
                edges.add(from: 2 * count + index, Edge(target: 2 * count + parentIndex))  // declared -> declared(parent)
            }
        }
        var relationships: [DeclaredRelationship] = []
        var sourceEntity: [Int] = []
        var destinationNode: [Int] = []
        for position in model.relationshipPositions(where: { traits, _ in follows(traits) }) {
            guard let destination = model.destinationIndex(ofRelationshipAt: position) else { continue }
            edges.add(from: 2 * count + position.entityIndex, Edge(target: destination, relationship: relationships.count))
            relationships.append(DeclaredRelationship(position, in: model))
            sourceEntity.append(position.entityIndex)
            destinationNode.append(destination)
        }
        self.entityCount = count
        self.relationships = relationships
        self.sourceEntity = sourceEntity
        self.destinationNode = destinationNode
        self.edges = edges.finish()
    }

    private static func soundLineages(parent: [Int?]) -> [Bool] {
        enum State { case unvisited, walking, sound, broken }
        var state = [State](repeating: .unvisited, count: parent.count)
        for start in parent.indices where state[start] == .unvisited {
            var path: [Int] = []
            var current: Int? = start
            var verdict = State.sound
            while let node = current {
                switch state[node] {
                case .sound: verdict = .sound; current = nil
                case .broken: verdict = .broken; current = nil
                case .walking: verdict = .broken; current = nil  // a loop
                case .unvisited:
                    state[node] = .walking
                    path.append(node)
                    current = parent[node]
                }
            }
            for node in path { state[node] = verdict }
        }
        return state.map { $0 == .sound }
    }

    /// Strongly connected components (Tarjan's algorithm with an explicit stack, so a 10,000-long
    /// chain cannot overflow the call stack). Returns each node's component number.
    func stronglyConnectedComponents() -> [Int] {
        let unvisited = -1
        var index = [Int](repeating: unvisited, count: nodeCount)
        var lowLink = [Int](repeating: 0, count: nodeCount)
        var onStack = [Bool](repeating: false, count: nodeCount)
        var component = [Int](repeating: -1, count: nodeCount)
        var stack: [Int] = []
        var nextIndex = 0
        var componentCount = 0
        // Each frame: a node and how many of its edges have been looked at.
        var frames: [(node: Int, edge: Int)] = []
        for root in 0..<nodeCount where index[root] == unvisited {
            frames.append((root, 0))
            index[root] = nextIndex; lowLink[root] = nextIndex; nextIndex += 1
            stack.append(root); onStack[root] = true
            while let frame = frames.last {
                let node = frame.node
                let outgoing = edges[node]
                if frame.edge < outgoing.count {
                    frames[frames.count - 1].edge += 1
                    let target = outgoing[outgoing.startIndex + frame.edge].target
                    if index[target] == unvisited {
                        index[target] = nextIndex; lowLink[target] = nextIndex; nextIndex += 1
                        stack.append(target); onStack[target] = true
                        frames.append((target, 0))
                    } else if onStack[target] {
                        lowLink[node] = min(lowLink[node], index[target])
                    }
                    continue
                }
                frames.removeLast()
                if let caller = frames.last {
                    lowLink[caller.node] = min(lowLink[caller.node], lowLink[node])
                }
                if lowLink[node] == index[node] {
                    while let member = stack.popLast() {
                        onStack[member] = false
                        component[member] = componentCount
                        if member == node { break }
                    }
                    componentCount += 1
                }
            }
        }
        return component
    }

    /// The relationships along the shortest path from `start` to `goal`, staying inside `allowed`
    /// nodes (breadth first); nil when there is none.
    func relationshipPath(from start: Int, to goal: Int, within allowed: (Int) -> Bool) -> [Int]? {
        var previous = [Int: (node: Int, relationship: Int?)]()
        var queue = [start]
        var head = 0
        var reached = start == goal
        previous[start] = (start, nil)
        while head < queue.count, !reached {
            let node = queue[head]
            head += 1
            for edge in edges[node] where previous[edge.target] == nil && allowed(edge.target) {
                previous[edge.target] = (node, edge.relationship)
                if edge.target == goal { reached = true; break }
                queue.append(edge.target)
            }
        }
        guard reached else { return nil }
        var path: [Int] = []
        var node = goal
        while node != start {
            guard let step = previous[node] else { return nil }
            if let relationship = step.relationship { path.append(relationship) }
            node = step.node
        }
        return path.reversed()
    }
}

/// Every node's list of edges (or anything per node) in one array, node after node, rather than
/// an array per node: a graph of a large model has three nodes per entity, and as many small
/// heap blocks, scattered, cost more to make and to walk than the lists themselves.
struct Adjacency<Element> {
    /// Node `n`'s elements are `all[starts[n] ..< starts[n + 1]]`.
    private let starts: [Int]
    private let all: [Element]

    subscript(node: Int) -> ArraySlice<Element> { all[starts[node]..<starts[node + 1]] }

    /// Collects elements in any order of nodes; each node keeps its elements in the order added.
    struct Builder {
        private var nodes: [Int] = []
        private var added: [Element] = []
        private let nodeCount: Int

        init(nodeCount: Int) { self.nodeCount = nodeCount }

        mutating func add(from node: Int, _ element: Element) {
            nodes.append(node)
            added.append(element)
        }

        /// A counting sort by node, stable, so every node's elements keep their order.
        func finish() -> Adjacency {
            var starts = [Int](repeating: 0, count: nodeCount + 1)
            for node in nodes { starts[node + 1] += 1 }
            for node in 0..<nodeCount { starts[node + 1] += starts[node] }
            var next = starts
            // Every slot is written exactly once: each node's run holds exactly its elements.
            let all = [Element](unsafeUninitializedCapacity: added.count) { buffer, initialized in
                guard let base = buffer.baseAddress else { return }  // no elements
                for (node, element) in zip(nodes, added) {
                    (base + next[node]).initialize(to: element)
                    next[node] += 1
                }
                initialized = added.count
            }
            return Adjacency(starts: starts, all: all)
        }
    }
}

/// Renders a chain of relationships for a message, eliding the middle of a very long one so that
/// a finding stays one readable line.
enum RelationshipPathText {
    static let maximumShown = 12

    /// `first`, then `hidden` more, then `last`, joined by arrows.
    static func render(first: [String], hidden: Int, last: [String]) -> String {
        var parts = first.map { "'\($0)'" }
        if hidden > 0 { parts.append("… (\(hidden) more) …") }
        parts += last.map { "'\($0)'" }
        return parts.joined(separator: " → ")
    }

    /// Keeps the first and last few names of a long path.
    static func render(_ names: [String]) -> String {
        guard names.count > maximumShown else { return render(first: names, hidden: 0, last: []) }
        let head = maximumShown / 2
        let tail = maximumShown - head - 1
        return render(first: Array(names.prefix(head)), hidden: names.count - head - tail, last: Array(names.suffix(tail)))
    }
}

// MARK: What the cascade rules ask of the graph

extension CascadeGraph {
    /// Cascade relationships that lead back to where they start: one per strongly connected
    /// component of the graph that some relationship stays inside.
    struct Cycle {
        /// The relationships inside the component, in document order.
        let relationships: [DeclaredRelationship]
        /// Their indexes in `relationships`.
        fileprivate let members: [Int]
        /// The component's number in `componentOfNode`, every node's (shared by all cycles).
        fileprivate let component: Int
        fileprivate let componentOfNode: [Int]
    }

    /// Every cycle of cascade relationships (deleting any object on it deletes every other).
    func cycles() -> [Cycle] {
        let component = stronglyConnectedComponents()
        var members: [Int: [Int]] = [:]
        var order: [Int] = []
        for index in relationships.indices {
            let source = component[declared(sourceEntity[index])]
            guard source == component[destinationNode[index]] else { continue }
            if members[source] == nil { order.append(source) }
            members[source, default: []].append(index)
        }
        return order.map { id in
            Cycle(relationships: members[id]!.map { relationships[$0] }, members: members[id]!, component: id,
                  componentOfNode: component)
        }
    }

    /// The relationships that lead from `relationship`'s destination back to its entity inside
    /// `cycle`, shortest first: with `relationship` itself, the loop around.
    func loop(closedBy relationship: DeclaredRelationship, in cycle: Cycle) -> [DeclaredRelationship] {
        guard let index = cycle.members.first(where: { relationships[$0].key == relationship.key }) else { return [] }
        let path = relationshipPath(from: destinationNode[index], to: declared(sourceEntity[index])) {
            cycle.componentOfNode[$0] == cycle.component
        } ?? []
        return path.map { relationships[$0] }
    }

    /// Where cascades lead into one of `denials` (relationships whose delete rule can fail a
    /// save): for every followed relationship from which some path of cascades reaches an entity
    /// declaring one, the nearest such path.
    func paths(into denials: [DeclaredRelationship]) -> [PathIntoDenial] {
        var denialsByEntity = [[DeclaredRelationship]](repeating: [], count: entityCount)
        for denial in denials {
            guard let entityIndex = denial.position?.entityIndex else { continue }
            denialsByEntity[entityIndex].append(denial)
        }
        guard !denials.isEmpty else { return [] }

        // Breadth first backwards from every entity declaring a denial: for each node, the next
        // step towards the nearest one, and enough about the rest of the path to print it in O(1).
        let unreached = -1
        var reversed = Adjacency<(source: Int, relationship: Int?)>.Builder(nodeCount: nodeCount)
        for source in 0..<nodeCount {
            for edge in edges[source] { reversed.add(from: edge.target, (source, edge.relationship)) }
        }
        let reverse = reversed.finish()
        var next = [Int](repeating: unreached, count: nodeCount)
        var nextRelationship = [Int?](repeating: nil, count: nodeCount)
        var target = [Int](repeating: unreached, count: nodeCount)
        var hopsLeft = [Int](repeating: 0, count: nodeCount)
        var lastHop = [Int?](repeating: nil, count: nodeCount)
        var queue: [Int] = []
        for entity in 0..<entityCount where !denialsByEntity[entity].isEmpty {
            let node = declared(entity)
            target[node] = entity
            queue.append(node)
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            for (source, relationship) in reverse[node] where target[source] == unreached {
                target[source] = target[node]
                next[source] = node
                nextRelationship[source] = relationship
                hopsLeft[source] = hopsLeft[node] + (relationship == nil ? 0 : 1)
                lastHop[source] = lastHop[node] ?? relationship
                queue.append(source)
            }
        }

        var paths: [PathIntoDenial] = []
        for (index, start) in relationships.enumerated() {
            let destination = destinationNode[index]
            guard target[destination] != unreached else { continue }
            // The first few steps, walked; the rest summarised from what the search recorded.
            var shown = [start]
            var node = destination
            while next[node] != unreached, shown.count < RelationshipPathText.maximumShown - 1 {
                if let relationship = nextRelationship[node] { shown.append(relationships[relationship]) }
                node = next[node]
            }
            let remaining = hopsLeft[node]
            var last: [DeclaredRelationship] = []
            if remaining > 0, let final = lastHop[node] { last = [relationships[final]] }
            paths.append(PathIntoDenial(start: start, firstSteps: shown, hiddenSteps: max(0, remaining - last.count),
                                        lastSteps: last, denial: denialsByEntity[target[destination]][0]))
        }
        return paths
    }

    /// A path of cascades from `start` to an entity that declares `denial`, shortened for a
    /// message: `firstSteps` (from `start` itself), `hiddenSteps` more, then `lastSteps`.
    struct PathIntoDenial {
        let start: DeclaredRelationship
        let firstSteps: [DeclaredRelationship]
        let hiddenSteps: Int
        let lastSteps: [DeclaredRelationship]
        let denial: DeclaredRelationship
    }
}

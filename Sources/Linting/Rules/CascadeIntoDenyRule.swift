import DataModel

/// A Cascade path that reaches a relationship with the Deny rule.
public struct CascadeIntoDenyRule: Rule {
    public static let description = RuleDescription(
        id: "cascade_into_deny",
        name: "Cascade into Deny",
        summary: "A chain of Cascade rules reaches a Deny relationship, so deleting the first object fails while that relationship holds objects the same save does not delete.",
        rationale: """
            Cascade deletes the destinations, which then run their own rules. When one of them has a \
            Deny relationship that still holds objects, the save fails with 1600 on that object, and \
            with it the delete of the root the user asked for; the pending deletions stay in the context \
            and make later saves fail too. Deny is satisfied when every destination is deleted in the \
            same save (inferred; the conformance suite's `cascade.reaches-deny-satisfied` and \
            `deny.destinations-deleted-in-same-save` specify it), so deleting the denied objects \
            together with the root succeeds, and a to-one Deny back to the object that cascades into it \
            is not flagged. \
            The message names the whole path (the shortest one; a path of more than a dozen steps is \
            shortened in the middle so the finding stays one line); inherited rules and sub-entity \
            destinations are followed.

            Default severity: warning. The model builds and loads; the delete fails only when the denied \
            relationship still holds objects the save keeps, which the app may prevent.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsdeleterule/denydeleterule",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
            "docs/coredata-semantics.md §1 Deny and failed saves",
        ],
        howToFix: """
            Decide which rule wins: make the Deny relationship Nullify or Cascade if the cascade should \
            succeed, or make the first relationship of the path Deny or Nullify so the user is told up front.
            """,
        category: .deleteRules,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Library">
                    ↓<relationship name="shelves" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Shelf" inverseName="library" inverseEntity="Shelf"/>
                </entity>
                <entity name="Shelf">
                    <relationship name="library" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Library" inverseName="shelves" inverseEntity="Library"/>
                    ↓<relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                    <relationship name="loans" optional="YES" toMany="YES" deletionRule="Deny" destinationEntity="Loan" inverseName="book" inverseEntity="Loan"/>
                </entity>
                <entity name="Loan">
                    <relationship name="book" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Book" inverseName="loans" inverseEntity="Book"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Shelf">
                    <relationship name="books" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Book" inverseName="shelf" inverseEntity="Book"/>
                </entity>
                <entity name="Book">
                    <relationship name="shelf" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Shelf" inverseName="books" inverseEntity="Shelf"/>
                    <relationship name="loans" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Loan" inverseName="book" inverseEntity="Loan"/>
                </entity>
                <entity name="Loan">
                    <relationship name="book" optional="YES" maxCount="1" deletionRule="Deny" destinationEntity="Book" inverseName="loans" inverseEntity="Book"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        let graph = model.cascadeGraph
        // The Deny relationships that can fail a cascade, per declaring entity.
        var denials = [[Relationship]](repeating: [], count: graph.entityCount)
        var anyDenial = false
        // Chosen by traits. A to-one Deny whose inverse cascades is left out: its only
        // destination is the object cascading into it.
        let candidates = model.model.relationshipPositions { traits, inverse in
            traits.deletionRule == .deny && (traits.isToMany || inverse?.deletionRule != .cascade)
        }
        for position in candidates {
            denials[position.entityIndex].append(model.model.relationship(at: position))
            anyDenial = true
        }
        guard anyDenial else { return [] }

        // Breadth first backwards from every entity declaring a Deny: for each node, the next step
        // towards the nearest one, and enough about the rest of the path to print it in O(1).
        let unreached = -1
        var reversed = Adjacency<(source: Int, relationship: Int?)>.Builder(nodeCount: graph.nodeCount)
        for source in 0..<graph.nodeCount {
            for edge in graph.edges[source] { reversed.add(from: edge.target, (source, edge.relationship)) }
        }
        let reverse = reversed.finish()
        var next = [Int](repeating: unreached, count: graph.nodeCount)
        var nextRelationship = [Int?](repeating: nil, count: graph.nodeCount)
        var target = [Int](repeating: unreached, count: graph.nodeCount)
        var hopsLeft = [Int](repeating: 0, count: graph.nodeCount)
        var lastHop = [Int?](repeating: nil, count: graph.nodeCount)
        var queue: [Int] = []
        for entity in 0..<graph.entityCount where !denials[entity].isEmpty {
            let node = graph.declared(entity)
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

        var violations: [Violation] = []
        for (index, declared) in graph.relationships.enumerated() {
            let destination = graph.destinationNode[index]
            guard target[destination] != unreached else { continue }
            // The first few steps, walked; the rest summarised from what the search recorded.
            var shown = [declared.qualifiedName]
            var node = destination
            while next[node] != unreached, shown.count < RelationshipPathText.maximumShown - 1 {
                if let relationship = nextRelationship[node] {
                    shown.append(graph.relationships[relationship].qualifiedName)
                }
                node = next[node]
            }
            let remaining = hopsLeft[node]
            var last: [String] = []
            if remaining > 0, let final = lastHop[node] { last = [graph.relationships[final].qualifiedName] }
            let denial = denials[target[destination]][0]
            let denyingEntity = model.entities[target[destination]].name
            let path = RelationshipPathText.render(first: shown, hidden: max(0, remaining - last.count), last: last)
            violations.append(Violation(
                message: "deleting \(Naming.indefinite(declared.entity.name)) cascades through \(path) to '\(denyingEntity).\(denial.name)', "
                    + "which uses Deny, so the delete fails (1600) while '\(denyingEntity).\(denial.name)' holds objects "
                    + "not deleted in the same save; "
                    + "make that relationship Nullify or Cascade, or stop the cascade earlier",
                location: declared.relationship.location, entityName: declared.entity.name,
                propertyName: declared.relationship.name))
        }
        return violations
    }
}

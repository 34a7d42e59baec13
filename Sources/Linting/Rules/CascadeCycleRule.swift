import DataModel

/// A cycle of Cascade rules through which a delete spreads to a whole component.
public struct CascadeCycleRule: Rule {
    public static let description = RuleDescription(
        id: "cascade_cycle",
        name: "Cascade Cycle",
        summary: "Cascade rules form a cycle through a shared object, so deleting any member deletes the whole component.",
        rationale: """
            Core Data repeats delete propagation until nothing new is deleted, so a cycle of Cascade \
            rules terminates, but only after deleting everything connected through it. A cycle that \
            only walks down ownership (`Folder.subfolders`, each child having one parent) deletes a \
            subtree, as intended, and is not flagged. A cycle that also climbs a shared relationship \
            (a Cascade whose inverse is to-many, such as `Player.team`) turns one delete into the \
            deletion of every object in the component: deleting one player deletes the team, which \
            deletes every player. Inherited rules and sub-entity destinations are followed.

            Default severity: warning. Cycles terminate and the save succeeds; the cost is data deleted \
            by surprise, not a failure.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsdeleterule/cascadedeleterule",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
            "docs/coredata-semantics.md §1 Delete rules (cycles terminate)",
        ],
        howToFix: "Break the cycle: set the relationship that climbs to the shared object (usually the to-one to a parent) to Nullify.",
        category: .deleteRules,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                <entity name="Player">
                    ↓<relationship name="team" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Album">
                    <relationship name="tracks" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Track" inverseName="album" inverseEntity="Track"/>
                </entity>
                <entity name="Track">
                    <relationship name="album" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Album" inverseName="tracks" inverseEntity="Album"/>
                    ↓<relationship name="artist" optional="YES" maxCount="1" deletionRule="Cascade" destinationEntity="Artist" inverseName="tracks" inverseEntity="Artist"/>
                </entity>
                <entity name="Artist">
                    <relationship name="tracks" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Track" inverseName="artist" inverseEntity="Track"/>
                    <relationship name="albums" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Album"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Folder">
                    <relationship name="parent" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="subfolders" inverseEntity="Folder"/>
                    <relationship name="subfolders" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Folder" inverseName="parent" inverseEntity="Folder"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" deletionRule="Cascade" destinationEntity="Player" inverseName="team" inverseEntity="Player"/>
                </entity>
                <entity name="Player">
                    <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team" inverseName="players" inverseEntity="Team"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        let graph = model.cascadeGraph
        return graph.cycles().compactMap { cycle in
            // Only a cycle that climbs to a shared object (a Cascade whose inverse is to-many)
            // deletes more than a subtree. Report at the relationship that climbs, the one to
            // change; of several, the one whose name sorts first, so the file's order does not matter.
            let climbers = cycle.relationships.filter { model.resolvedInverse(of: $0)?.relationship.isToMany == true }
            guard let declared = climbers.min(by: { $0.qualifiedName < $1.qualifiedName }) else { return nil }
            let names = ([declared] + graph.loop(closedBy: declared, in: cycle) + [declared]).map(\.qualifiedName)
            var entityNames: [String] = []
            var seen: Set<String> = []
            for member in cycle.relationships.sorted(by: { $0.qualifiedName < $1.qualifiedName })
            where seen.insert(member.entity.name).inserted {
                entityNames.append(member.entity.name)
            }
            let shownEntities = entityNames.count > 6
                ? Naming.quotedList(Array(entityNames.prefix(5)), conjunction: "or") + " (or \(entityNames.count - 5) more entities)"
                : Naming.quotedList(entityNames, conjunction: "or")
            let wording = ModelWording(model.model)
            return declared.violation(
                "cascade rules form a cycle, \(RelationshipPathText.render(names)), through a shared object; deleting "
                    + "any \(shownEntities) object deletes everything connected through them; set "
                    + "'\(declared.qualifiedName)', which climbs to the shared object, to \(wording.deleteRule(.nullify))")
        }
    }
}

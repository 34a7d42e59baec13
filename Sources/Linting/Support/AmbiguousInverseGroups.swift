import DataModel

/// Relationships that several relationships name as their inverse, with those claimers.
///
/// Shared by `ambiguous_inverse`, which reports each group once, and `inverse_mismatch`, which
/// must then stay silent about the members.
struct AmbiguousInverseGroups {
    struct Group {
        /// The relationship named as inverse by every claimer.
        var claimed: DeclaredRelationship
        /// In document order.
        var claimers: [DeclaredRelationship]
    }

    /// In the document order of the claimed relationships.
    let groups: [Group]
    private let memberKeys: Set<DeclaredRelationship.Key>

    init(model: Model) {
        // Count claims by position first and build declarations only for the groups: almost
        // every relationship is claimed once, by its own inverse.
        var claimCount: [RelationshipPosition: Int] = [:]
        for entityIndex in model.entities.indices {
            for relationshipIndex in model.entities[entityIndex].relationships.indices {
                let claimer = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                if let claimed = model.inversePosition(of: claimer) { claimCount[claimed, default: 0] += 1 }
            }
        }
        var order: [RelationshipPosition] = []
        var claimersByPosition: [RelationshipPosition: [DeclaredRelationship]] = [:]
        for entityIndex in model.entities.indices {
            for relationshipIndex in model.entities[entityIndex].relationships.indices {
                let claimer = RelationshipPosition(entityIndex: entityIndex, relationshipIndex: relationshipIndex)
                guard let claimed = model.inversePosition(of: claimer), claimCount[claimed, default: 0] > 1 else { continue }
                if claimersByPosition[claimed] == nil { order.append(claimed) }
                claimersByPosition[claimed, default: []].append(DeclaredRelationship(claimer, in: model))
            }
        }
        var groups: [Group] = []
        var members: Set<DeclaredRelationship.Key> = []
        // In the document order of the claimed relationships, as the first claim found them.
        for claimed in order {
            let claimers = claimersByPosition[claimed] ?? []
            groups.append(Group(claimed: DeclaredRelationship(claimed, in: model), claimers: claimers))
            members.formUnion(claimers.map(\.key))
        }
        self.groups = groups
        self.memberKeys = members
    }

    func isMember(_ relationship: DeclaredRelationship) -> Bool {
        memberKeys.contains(relationship.key)
    }
}

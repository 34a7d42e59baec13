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
        var order: [DeclaredRelationship.Key] = []
        var claimedByKey: [DeclaredRelationship.Key: DeclaredRelationship] = [:]
        var claimersByKey: [DeclaredRelationship.Key: [DeclaredRelationship]] = [:]
        for claimer in model.declaredRelationships {
            guard let inverse = model.resolvedInverse(of: claimer.relationship) else { continue }
            if claimedByKey[inverse.key] == nil {
                order.append(inverse.key)
                claimedByKey[inverse.key] = inverse
            }
            claimersByKey[inverse.key, default: []].append(claimer)
        }
        var groups: [Group] = []
        var members: Set<DeclaredRelationship.Key> = []
        for key in order {
            let claimers = claimersByKey[key] ?? []
            guard claimers.count > 1, let claimed = claimedByKey[key] else { continue }
            groups.append(Group(claimed: claimed, claimers: claimers))
            members.formUnion(claimers.map(\.key))
        }
        self.groups = groups
        self.memberKeys = members
    }

    func isMember(_ relationship: DeclaredRelationship) -> Bool {
        memberKeys.contains(relationship.key)
    }
}

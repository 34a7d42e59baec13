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
        // every relationship is claimed once, by its own inverse. The counts sit in one flat
        // array in document order and stop at 2, since only "more than one" matters: no
        // hashing for the tens of thousands claimed once.
        // Claimers are the relationships whose inverse resolves, chosen from the tables.
        let claims = model.relationshipPositions { _, inverse in inverse != nil }
            .compactMap { claimer in model.inversePosition(of: claimer).map { (claimer: claimer, claimed: $0) } }
        var claimCounts = [UInt8](repeating: 0, count: model.relationshipCount)
        var anyClaimedTwice = false
        for claim in claims {
            let slot = model.documentIndex(of: claim.claimed)
            if claimCounts[slot] < 2 { claimCounts[slot] += 1 }
            if claimCounts[slot] == 2 { anyClaimedTwice = true }
        }
        guard anyClaimedTwice else {
            self.groups = []
            self.memberKeys = []
            return
        }
        var order: [RelationshipPosition] = []
        var claimersByPosition: [RelationshipPosition: [DeclaredRelationship]] = [:]
        for (claimer, claimed) in claims where claimCounts[model.documentIndex(of: claimed)] > 1 {
            if claimersByPosition[claimed] == nil { order.append(claimed) }
            claimersByPosition[claimed, default: []].append(DeclaredRelationship(claimer, in: model))
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
        !memberKeys.isEmpty && memberKeys.contains(relationship.key)
    }
}

import DataModel

/// The model a rule checks, with the facts several rules derive from it computed once.
///
/// A rule reads the model through this wrapper exactly as it would read `Model` (its stored
/// properties are forwarded), so it stays a pure function of the model. What the wrapper adds is
/// sharing: the declared relationships, the CloudKit scope and the ambiguous-inverse groups are
/// built on first use and reused by every later rule of the same lint, instead of once per rule.
/// With 34 rules over a 10,000-entity model that is the difference between a lint that keeps pace
/// with the XML parser and one that takes seconds (see `reports/benchmarks.md`).
///
/// One instance lives for one model's lint, on one thread; it is deliberately not `Sendable`.
@dynamicMemberLookup
public final class LintedModel {
    public let model: Model

    public init(_ model: Model) {
        self.model = model
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<Model, Value>) -> Value {
        model[keyPath: keyPath]
    }

    // MARK: Shared facts, each built on first use

    /// Every relationship the model declares, entity by entity in document order.
    private(set) lazy var declaredRelationships: [DeclaredRelationship] = model.declaredRelationships
    /// Every attribute of every entity, then of every composite, in document order.
    private(set) lazy var declaredAttributes: [DeclaredAttribute] = model.declaredAttributes
    /// What NSPersistentCloudKitContainer syncs of the model.
    private(set) lazy var cloudKitScope = CloudKitScope(model: model)
    /// Relationships named as inverse by more than one relationship.
    private(set) lazy var ambiguousInverseGroups = AmbiguousInverseGroups(model: model)
    /// The relationships a delete cascades along, as a graph over entities.
    private(set) lazy var cascadeGraph = CascadeGraph(model: model) { $0.deletionRule == .cascade }

    // MARK: The model's lookups (methods are not reached through dynamic member lookup)

    public func entity(named name: String) -> Entity? { model.entity(named: name) }
    public func parent(of entity: Entity) -> Entity? { model.parent(of: entity) }
    public func ancestors(of entity: Entity) -> [Entity] { model.ancestors(of: entity) }
    public func subentities(of entity: Entity) -> [Entity] { model.subentities(of: entity) }
    public func property(named name: String, in entity: Entity) -> Property? { model.property(named: name, in: entity) }
    public func ownProperty(named name: String, in entity: Entity) -> Property? { model.ownProperty(named: name, in: entity) }
    public func position(of relationship: Relationship) -> RelationshipPosition? { model.position(of: relationship) }
    public func destination(of relationship: Relationship) -> Entity? { model.destination(of: relationship) }
    func resolvedInverse(of relationship: Relationship) -> DeclaredRelationship? { model.resolvedInverse(of: relationship) }
    /// The inverse of a declared relationship, read from the model's table when its position is
    /// known (no lookup by name at all).
    func resolvedInverse(of declared: DeclaredRelationship) -> DeclaredRelationship? {
        guard let position = declared.position else { return model.resolvedInverse(of: declared.relationship) }
        return model.inversePosition(of: position).map { DeclaredRelationship($0, in: model) }
    }
    func areInSameLine(_ first: String, _ second: String) -> Bool { model.areInSameLine(first, second) }
}

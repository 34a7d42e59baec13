import DataModel
import Foundation

/// The model a rule checks, with the facts several rules derive from it computed once.
///
/// A rule reads the model through this wrapper exactly as it would read `Model` (its stored
/// properties are forwarded), so it stays a pure function of the model. What the wrapper adds is
/// sharing: the CloudKit scope, the cascade graph and the ambiguous-inverse groups are built on
/// first use and reused by every later rule of the same lint, instead of once per rule
/// (docs/benchmarks.md, "The same facts derived once per rule").
///
/// The engine may run rules on several threads at once; each fact is built under its own lock,
/// once, and only read afterwards.
@dynamicMemberLookup
public final class LintedModel: Sendable {
    public let model: Model

    public init(_ model: Model) {
        self.model = model
    }

    public subscript<Value>(dynamicMember keyPath: KeyPath<Model, Value>) -> Value {
        model[keyPath: keyPath]
    }

    /// Forwarded by hand: the name is shared with `entities(where:)`, which would otherwise hide it.
    public var entities: [Entity] { model.entities }

    // MARK: Shared facts, each built on first use

    /// What NSPersistentCloudKitContainer syncs of the model.
    var cloudKitScope: CloudKitScope { cloudKitScopeFact.value { CloudKitScope(model: model) } }
    /// Relationships named as inverse by more than one relationship.
    var ambiguousInverseGroups: AmbiguousInverseGroups { ambiguousInverseGroupsFact.value { AmbiguousInverseGroups(model: model) } }
    /// The relationships a delete cascades along, as a graph over entities.
    var cascadeGraph: CascadeGraph { cascadeGraphFact.value { CascadeGraph(model: model) { $0.deletionRule == .cascade } } }
    /// What each entity inherits, built in one walk down the hierarchy (linear in its depth).
    var inheritedProperties: InheritedProperties { inheritedPropertiesFact.value { InheritedProperties(model: model) } }
    /// Which of each entity's own properties repeat a name it declared before.
    var repeatedPropertyNames: RepeatedPropertyNames { repeatedPropertyNamesFact.value { RepeatedPropertyNames(model: model) } }

    private let cloudKitScopeFact = SharedFact<CloudKitScope>()
    private let ambiguousInverseGroupsFact = SharedFact<AmbiguousInverseGroups>()
    private let cascadeGraphFact = SharedFact<CascadeGraph>()
    private let inheritedPropertiesFact = SharedFact<InheritedProperties>()
    private let repeatedPropertyNamesFact = SharedFact<RepeatedPropertyNames>()

    // MARK: The model's lookups (methods are not reached through dynamic member lookup)

    public func entity(named name: String) -> Entity? { model.entity(named: name) }
    public func subentities(of entity: Entity) -> [Entity] { model.subentities(of: entity) }
    public func property(named name: String, in entity: Entity) -> Property? { model.property(named: name, in: entity) }
    public func ownPropertyNames(ofEntityAt index: Int) -> ArraySlice<String> { model.ownPropertyNames(ofEntityAt: index) }
    func resolvedInverse(of relationship: Relationship) -> DeclaredRelationship? { model.resolvedInverse(of: relationship) }
    /// The inverse of a declared relationship, read from the model's table when its position is
    /// known (no lookup by name at all).
    func resolvedInverse(of declared: DeclaredRelationship) -> DeclaredRelationship? {
        guard let position = declared.position else { return model.resolvedInverse(of: declared.relationship) }
        return model.inversePosition(of: position).map { DeclaredRelationship($0, in: model) }
    }
    func areInSameLine(_ first: String, _ second: String) -> Bool { model.areInSameLine(first, second) }
}

/// A value built by the first reader that asks for it, under a lock, and shared by every later
/// reader on any thread.
private final class SharedFact<Value>: @unchecked Sendable {
    // @unchecked: `built` is only touched with `lock` held, and `make` is called under it.
    private let lock = NSLock()
    private var built: Value?

    /// The value, built with `make` by the first reader.
    func value(_ make: () -> Value) -> Value {
        lock.withLock {
            if let built { return built }
            let value = make()
            built = value
            return value
        }
    }
}

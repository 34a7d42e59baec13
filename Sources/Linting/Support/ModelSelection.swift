import DataModel

// How a rule chooses what to look at.
//
// A rule says WHAT it checks as a filter: `model.entities { … }`, `model.properties { … }`,
// `model.declaredRelationships { … }`, `model.declaredAttributes { … }`. The filter gets a
// small view of one entity, property or relationship that answers from the model's flat tables
// (names, parents, traits, resolved destinations and inverses), so the filter passes over the
// thousands of elements a rule has nothing to say about without visiting any of them: on a large
// model each `Entity`, `Relationship` and `Property` lives in its own heap block, and reading one
// misses the processor's cache. What the filter keeps, the rule reads in full (`entity`,
// `property`, `relationship`) to report it. Positions, slots and indexes stay in here and in
// `Model`; no rule needs to know them.

/// One entity of the linted model, as a filter sees it: everything here is read from the model's
/// tables except `entity`, the value itself, which a rule reads to report it.
struct LintedEntity {
    let model: LintedModel
    /// Where the entity stands in `model.entities`.
    fileprivate let index: Int

    /// The entity itself.
    var entity: Entity { model.entities[index] }
    var name: String { model.model.nameOfEntity(at: index) }
    /// The `parentEntity` the file writes, whether or not it names an entity of the model.
    var parentName: String? { model.model.parentName(ofEntityAt: index) }
    /// What the model's trait table says of it (userInfo, fetched properties, constraints).
    var traits: EntityTraits { model.model.traits(ofEntityAt: index) }
    /// The entity `parentName` names (the first of that name), nil for a root or an unknown parent.
    var parent: LintedEntity? { model.model.parentIndex(ofEntityAt: index).map { LintedEntity(model: model, index: $0) } }
    /// The names of the properties the entity itself declares, in the order of its `properties`.
    var ownPropertyNames: ArraySlice<String> { model.ownPropertyNames(ofEntityAt: index) }
    /// How many properties its ancestors declare (a name declared twice counts twice).
    var inheritedPropertyCount: Int { model.inheritedProperties.inheritedCounts[index] }
    /// Own and inherited properties together.
    var propertyCount: Int { ownPropertyNames.count + inheritedPropertyCount }

    /// The relationships the entity inherits or declares that pass `test`, the root ancestor's
    /// first and its own last, each in document order.
    func relationshipsDeclaredOrInherited(where test: (RelationshipCandidate) -> Bool) -> [DeclaredRelationship] {
        var chosen: [DeclaredRelationship] = []
        for declaring in model.model.ancestorIndexes(ofEntityAt: index).reversed() + [index] {
            for relationshipIndex in model.entities[declaring].relationships.indices {
                let position = RelationshipPosition(entityIndex: declaring, relationshipIndex: relationshipIndex)
                if test(RelationshipCandidate(linted: model, position: position)) {
                    chosen.append(DeclaredRelationship(position, in: model.model))
                }
            }
        }
        return chosen
    }
}

/// One property an entity declares, as a filter sees it: its name and what the entity and its
/// ancestors declare of that name, from the model's tables; `property` is the value itself.
struct LintedProperty {
    /// The entity declaring it.
    let owner: LintedEntity
    /// Its place among the owner's `properties` (attributes, relationships, fetched properties).
    fileprivate let offset: Int
    let name: String
    /// The shared facts, fetched once per selection rather than once per property.
    fileprivate let facts: PropertyFacts

    /// The property itself.
    var property: Property { owner.entity.properties[offset] }
    /// True when the owner declares a property of this name before this one.
    var isRepeated: Bool {
        facts.isRepeated(offset, inEntityAt: owner.index)
    }
    /// The nearest ancestor of the owner that declares a property of the same name, if any.
    var nearestAncestorDeclaringName: LintedEntity? {
        facts.nearestDeclarer(ofOwnPropertyAt: offset, inEntityAt: owner.index)
            .map { LintedEntity(model: owner.model, index: $0) }
    }
}

/// The shared facts a property's view asks about, each read from `LintedModel` (under its lock)
/// at most once per selection. Used on the selecting thread only.
private final class PropertyFacts {
    let model: LintedModel
    // Optionals filled on first use rather than `lazy var`s: a lazy getter hands back a copy of
    // the whole fact (a retain of each table) on every call.
    private var inherited: InheritedProperties?
    private var repeatedNames: RepeatedPropertyNames?

    init(_ model: LintedModel) { self.model = model }

    func nearestDeclarer(ofOwnPropertyAt offset: Int, inEntityAt entityIndex: Int) -> Int? {
        if inherited == nil { inherited = model.inheritedProperties }
        return inherited!.nearestDeclarer(ofOwnPropertyAt: offset, inEntityAt: entityIndex)
    }

    func isRepeated(_ offset: Int, inEntityAt entityIndex: Int) -> Bool {
        if repeatedNames == nil { repeatedNames = model.repeatedPropertyNames }
        return repeatedNames!.isRepeated(offset, inEntityAt: entityIndex, of: model.model)
    }
}

/// One relationship an entity declares, as a filter sees it: its traits and its inverse's, and
/// what the model resolved about it, all from the model's tables.
struct RelationshipCandidate {
    // The class, not the `Model` value: a filter runs for every relationship, and copying the
    // value would retain each of its arrays every time.
    fileprivate let linted: LintedModel
    fileprivate let position: RelationshipPosition
    private var model: Model { linted.model }

    var traits: RelationshipTraits { model.traits(ofRelationshipAt: position) }
    /// The traits of the relationship its `inverseName` resolves to; nil when it names none or
    /// the name does not resolve to a relationship.
    var inverseTraits: RelationshipTraits? { model.inversePosition(of: position).map(model.traits(ofRelationshipAt:)) }
    /// True when `destinationEntity` names an entity of the model.
    var hasKnownDestination: Bool { model.destinationIndex(ofRelationshipAt: position) != nil }
    /// Its destination when that is an entity of the model (the first of that name).
    var knownDestination: LintedEntity? {
        model.destinationIndex(ofRelationshipAt: position).map { LintedEntity(model: linted, index: $0) }
    }
    /// True when it is one half of a well-made pair: its inverse resolves, names it back, has
    /// its entity as destination, and no inverse entity other than its destination is written.
    var formsWellMadePair: Bool {
        guard let inverse = model.inversePosition(of: position), model.inversePosition(of: inverse) == position,
              !traits.namesOtherInverseEntity
        else { return false }
        return model.destinationIndex(ofRelationshipAt: inverse) == position.entityIndex
    }
}

/// A set of the model's entities, chosen by name: asking whether it holds an entity is an array
/// read, where a set of names would hash the name every time.
struct EntitySet {
    private let holds: [Bool]

    fileprivate init(holds: [Bool]) { self.holds = holds }

    func contains(_ entity: LintedEntity) -> Bool { holds[entity.index] }
}

extension LintedModel {
    /// The entities whose name is one of `names` (every entity of such a name).
    func entitySet(named names: some Sequence<String>) -> EntitySet {
        let names = Set(names)
        return EntitySet(holds: model.entities.indices.map { names.contains(model.nameOfEntity(at: $0)) })
    }

    /// The entities that pass `test`, in document order.
    func entities(where test: (LintedEntity) -> Bool) -> [LintedEntity] {
        var chosen: [LintedEntity] = []
        for entityIndex in model.entities.indices {
            let entity = LintedEntity(model: self, index: entityIndex)
            if test(entity) { chosen.append(entity) }
        }
        return chosen
    }

    /// The properties the entities declare that pass `test`, entity by entity in document
    /// order, each entity's in the order of its `properties`.
    func properties(where test: (LintedProperty) -> Bool) -> [LintedProperty] {
        var chosen: [LintedProperty] = []
        let facts = PropertyFacts(self)
        for entityIndex in model.entities.indices {
            let owner = LintedEntity(model: self, index: entityIndex)
            let names = model.ownPropertyNames(ofEntityAt: entityIndex)
            for (offset, name) in zip(0..., names) {
                let property = LintedProperty(owner: owner, offset: offset, name: name, facts: facts)
                if test(property) { chosen.append(property) }
            }
        }
        return chosen
    }

    /// The properties the entities declare whose name passes `test`, in the order of
    /// `properties(where:)`. For a rule about names alone: the view of a property is made only
    /// for the few names chosen, not for every property of the model.
    func properties(whereName test: (String) -> Bool) -> [LintedProperty] {
        var chosen: [LintedProperty] = []
        let facts = PropertyFacts(self)
        for entityIndex in model.entities.indices {
            let names = model.ownPropertyNames(ofEntityAt: entityIndex)
            for (offset, name) in zip(0..., names) where test(name) {
                chosen.append(LintedProperty(owner: LintedEntity(model: self, index: entityIndex), offset: offset, name: name,
                                             facts: facts))
            }
        }
        return chosen
    }

    /// The relationships the model's entities declare that pass `test`, in document order. They
    /// are chosen from the model's tables, so a rule interested in a few relationships (Deny,
    /// say) never visits the others.
    func declaredRelationships(where test: (RelationshipCandidate) -> Bool) -> [DeclaredRelationship] {
        model.relationshipPositions(atPositions: { test(RelationshipCandidate(linted: self, position: $0)) })
            .map { DeclaredRelationship($0, in: model) }
    }

}

/// Which of each entity's own properties repeat a name the entity declared before (duplicates
/// are `duplicate_property`'s business; the model's tables keep the first of each name).
struct RepeatedPropertyNames: Sendable {
    /// Where the repeats sit in the model's flat table of property names; empty for nearly every
    /// model, so asking about a property is then no work at all.
    private let repeats: Set<Int>

    init(model: Model) {
        var repeats: Set<Int> = []
        for entityIndex in model.entities.indices {
            let names = model.ownPropertyNames(ofEntityAt: entityIndex)
            // A dozen names are compared faster than hashed; a large entity gets a set.
            var seen: Set<String>? = names.count > 16 ? [] : nil
            for index in names.indices {
                let name = names[index]
                let length = name.utf8.count
                let isRepeated = if seen != nil {
                    !seen!.insert(name).inserted
                } else {
                    names[..<index].contains { $0.utf8.count == length && $0 == name }
                }
                if isRepeated { repeats.insert(index) }
            }
        }
        self.repeats = repeats
    }

    func isRepeated(_ offset: Int, inEntityAt entityIndex: Int, of model: Model) -> Bool {
        !repeats.isEmpty && repeats.contains(model.ownPropertyNames(ofEntityAt: entityIndex).startIndex + offset)
    }
}

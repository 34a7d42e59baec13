import DataModel

/// A uniqueness constraint or fetch index naming a property it cannot use.
public struct ConstraintInvalidPropertyRule: Rule {
    public static let description = RuleDescription(
        id: "constraint_invalid_property",
        name: "Constraint on Invalid Property",
        summary: "A uniqueness constraint or fetch index names a property that does not exist, a transient or fetched property, or a to-many relationship.",
        rationale: """
            Uniqueness constraints and fetch indexes become SQLite indexes over the columns of the \
            entity's table. A name that is not a property of the entity (or of its ancestors) has no \
            column, nor does a transient property or a fetched property.

            A to-many relationship has no column either: it is stored in the inverse's foreign key on \
            the other side, or in a join table. In a uniqueness constraint that is an error (a \
            constraint is a set of values to compare, and a to-many is not one). In a fetch index it is \
            different: Apple documents an index element only as "a property description" (or an \
            expression), Xcode compiles such models, and widely used apps ship with them. What Core \
            Data does with the element is not documented; as the store has no column for it, the \
            index cannot use it (inferred), so the element only misleads: it is a warning, and the \
            index to add is on the inverse's to-one on the destination entity (whose foreign key is \
            the column such fetches search).

            Default severity: error, for names that are not a stored property (a constraint or index \
            that cannot be built) and for a to-many in a uniqueness constraint; a to-many \
            relationship in a fetch index or compound index is a warning, because the model builds \
            and loads.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsentitydescription/uniquenessconstraints",
            "https://developer.apple.com/documentation/coredata/nsfetchindexdescription",
            "https://developer.apple.com/documentation/coredata/nsfetchindexelementdescription/property",
            "docs/coredata-semantics.md §3 Uniqueness constraints, §7 SQLite store layout",
        ],
        howToFix: """
            Name persistent attributes or to-one relationships of the entity; fix a misspelt name. For a \
            to-many relationship in a fetch index, remove the element and index the inverse's to-one \
            on the destination entity instead.
            """,
        category: .structure,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="User">
                    <attribute name="email" optional="YES" attributeType="String"/>
                    <attribute name="displayName" optional="YES" transient="YES" attributeType="String"/>
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            ↓<constraint value="mail"/>
                            ↓<constraint value="notes"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                    <fetchIndex name="byDisplayName">
                        ↓<fetchIndexElement property="displayName" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
                <entity name="Note"/>
                """),
            // A warning: the index cannot cover a to-many, but the model builds and loads.
            RuleExample("""
                <entity name="Folder">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <relationship name="items" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Item" inverseName="folder" inverseEntity="Item"/>
                    <fetchIndex name="byTitleAndItems">
                        <fetchIndexElement property="title" type="Binary" order="ascending"/>
                        ↓<fetchIndexElement property="items" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
                <entity name="Item">
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="items" inverseEntity="Folder"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Account" isAbstract="YES">
                    <attribute name="email" optional="YES" attributeType="String"/>
                </entity>
                <entity name="User" parentEntity="Account">
                    <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team"/>
                    <uniquenessConstraints>
                        <uniquenessConstraint>
                            <constraint value="email"/>
                            <constraint value="team"/>
                        </uniquenessConstraint>
                    </uniquenessConstraints>
                    <fetchIndex name="byEmail">
                        <fetchIndexElement property="email" type="Binary" order="ascending"/>
                    </fetchIndex>
                </entity>
                <entity name="Team"/>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        var violations: [Violation] = []
        let isSwiftData = ModelWording(model.model).isSwiftData
        for linted in model.entities(where: { $0.traits.hasConstraintsOrIndexes }) {
            let entity = linted.entity
            var references: [(kind: Reference, property: String, location: SourceLocation)] = []
            for constraint in entity.uniquenessConstraints {
                references += constraint.members.map { (.uniquenessConstraint, $0.property, $0.location) }
            }
            for index in entity.fetchIndexes {
                references += index.elements.map { (.fetchIndex(name: index.name), $0.property, $0.location) }
            }
            for index in entity.compoundIndexes {
                references += index.members.map { (.compoundIndex, $0.property, $0.location) }
            }
            for reference in references {
                guard let problem = Self.problem(with: reference.property, in: entity, model: model.model) else { continue }
                let what = reference.kind.wording(property: reference.property, at: reference.location, in: entity,
                                                  model: model.model, isSwiftData: isSwiftData)
                if reference.kind.isIndex, case .toManyRelationship(let inverse) = problem {
                    // The model builds and loads; the index simply cannot cover the element.
                    let instead = inverse.map { "index '\($0)' on its destination instead" }
                        ?? "give the relationship an inverse to-one and index that on its destination instead"
                    violations.append(Violation(
                        message: "\(what) names '\(reference.property)', a to-many relationship, "
                            + "which has no column in '\(entity.name)''s table, so the index cannot use it; remove the "
                            + (isSwiftData ? "key path" : "element") + " and " + instead,
                        location: reference.location, entityName: entity.name, propertyName: reference.property,
                        severity: .warning))
                    continue
                }
                violations.append(Violation(
                    message: "\(what) names '\(reference.property)', which "
                        + (isSwiftData ? problem.swiftText : problem.text) + "; "
                        + (isSwiftData ? "name a stored property or to-one relationship" : "name a persistent attribute or to-one relationship"),
                    location: reference.location, entityName: entity.name, propertyName: reference.property))
            }
        }
        return violations
    }

    /// What names a property: a uniqueness constraint, a fetch index or a compound index.
    enum Reference {
        case uniquenessConstraint
        case fetchIndex(name: String)
        case compoundIndex

        var isIndex: Bool {
            if case .uniquenessConstraint = self { return false }
            return true
        }

        /// The reference as its author wrote it, worded only for a finding: "a uniqueness
        /// constraint of 'Item'" in a model file, "#Unique<Item>" in Swift (where a `.unique`
        /// option sits on the property it constrains, at the same location).
        func wording(property: String, at location: SourceLocation, in entity: Entity, model: Model,
                     isSwiftData: Bool) -> String {
            switch self {
            case .uniquenessConstraint:
                guard isSwiftData else { return "a uniqueness constraint of '\(entity.name)'" }
                let isOption = model.property(named: property, in: entity)?.location == location
                return isOption ? "the .unique option of '\(entity.name)'" : "#Unique<\(entity.name)>"
            case .fetchIndex(let name):
                return isSwiftData ? "#Index<\(entity.name)>" : "a fetch index '\(name)' of '\(entity.name)'"
            case .compoundIndex:
                return "a compound index of '\(entity.name)'"
            }
        }
    }

    /// Why a name cannot be part of a constraint or index.
    enum Problem {
        case notAProperty(entityName: String)
        /// With the inverse's qualified name, when it has one.
        case toManyRelationship(inverse: String?)
        case fetchedProperty
        case transient

        var text: String {
            switch self {
            case .notAProperty(let entityName): "is not a property of '\(entityName)'"
            case .toManyRelationship: "is a to-many relationship"
            case .fetchedProperty: "is a fetched property"
            case .transient: "is transient"
            }
        }

        /// The same in SwiftData's terms: a transient attribute is an `.ephemeral` one.
        var swiftText: String {
            if case .transient = self { return "is @Attribute(.ephemeral), not stored" }
            return text
        }
    }

    static func problem(with name: String, in entity: Entity, model: Model) -> Problem? {
        guard let property = model.property(named: name, in: entity) else {
            return .notAProperty(entityName: entity.name)
        }
        switch property {
        case .relationship(let relationship) where relationship.isToMany:
            let inverse = relationship.inverseName.map { inverseName in
                "\(relationship.destinationEntityName ?? relationship.inverseEntityName ?? "?").\(inverseName)"
            }
            return .toManyRelationship(inverse: inverse)
        case .fetchedProperty:
            return .fetchedProperty
        default:
            return property.isTransient ? .transient : nil
        }
    }
}

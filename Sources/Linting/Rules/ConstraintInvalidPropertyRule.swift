import DataModel

/// A uniqueness constraint or fetch index naming a property it cannot use.
public struct ConstraintInvalidPropertyRule: Rule {
    public static let description = RuleDescription(
        id: "constraint_invalid_property",
        name: "Constraint on Invalid Property",
        summary: "A uniqueness constraint or fetch index names a property that does not exist, a to-many relationship, or a transient property.",
        rationale: """
            Uniqueness constraints and fetch indexes become SQLite indexes over the entity's columns. A \
            name that is not a property of the entity (or of its ancestors) has no column, nor does a \
            transient property or a fetched property; a to-many relationship is stored on the other side \
            or in a join table, so it cannot be part of a unique index. Xcode refuses such a model, and a \
            model built in code fails when the store loads.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsentitydescription/uniquenessconstraints",
            "https://developer.apple.com/documentation/coredata/nsfetchindexdescription",
            "../shared/reference/coredata-behaviour.md §3 Uniqueness constraints",
        ],
        howToFix: "Name persistent attributes or to-one relationships of the entity; fix a misspelt name.",
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
        for entity in model.entities {
            var references: [(what: String, property: String, location: SourceLocation)] = []
            for constraint in entity.uniquenessConstraints {
                references += constraint.members.map { ("uniqueness constraint", $0.property, $0.location) }
            }
            for index in entity.fetchIndexes {
                references += index.elements.map { ("fetch index '\(index.name)'", $0.property, $0.location) }
            }
            for index in entity.compoundIndexes {
                references += index.members.map { ("compound index", $0.property, $0.location) }
            }
            for reference in references {
                guard let problem = Self.problem(with: reference.property, in: entity, model: model.model) else { continue }
                violations.append(Violation(
                    message: "a \(reference.what) of '\(entity.name)' names '\(reference.property)', which \(problem); "
                        + "name a persistent attribute or to-one relationship",
                    location: reference.location, entityName: entity.name, propertyName: reference.property))
            }
        }
        return violations
    }

    static func problem(with name: String, in entity: Entity, model: Model) -> String? {
        guard let property = model.property(named: name, in: entity) else {
            return "is not a property of '\(entity.name)'"
        }
        switch property {
        case .relationship(let relationship) where relationship.isToMany:
            return "is a to-many relationship"
        case .fetchedProperty:
            return "is a fetched property"
        default:
            return property.isTransient ? "is transient" : nil
        }
    }
}

import DataModel

/// A relationship whose destination or inverse entity is not in the model.
public struct UnknownDestinationRule: Rule {
    public static let description = RuleDescription(
        id: "unknown_destination",
        name: "Unknown Destination",
        summary: "A relationship's destination or inverse entity is not an entity of the model.",
        rationale: """
            Every relationship needs a destination entity of the same model; relationships across \
            models or stores are not supported. Xcode's model compiler refuses a destination it cannot \
            find, and a renamed or deleted entity leaves exactly this behind in a hand-merged model.

            Default severity: error. A relationship without a destination entity cannot be built: \
            Xcode's model compiler stops on it, and a model built in code cannot be loaded.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsrelationshipdescription/destinationentity",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/CoreData/HowManagedObjectsarerelated.html",
        ],
        howToFix: "Set the destination (and inverse entity) to an entity of this model, or add the missing entity.",
        category: .relationships,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Writer"/>
                    ↓<relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify"/>
                </entity>
                """),
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="Person"/>
                </entity>
                <entity name="User">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="author" inverseEntity="Note"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                </entity>
                <entity name="User">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="author" inverseEntity="Note"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        var violations: [Violation] = []
        let wording = ModelWording(model.model)
        // The model resolved every destination when it was built: only relationships whose
        // destination it did not find, or that write a different inverse entity, need a look.
        for declared in model.declaredRelationships(where: { !$0.hasKnownDestination || $0.traits.namesOtherInverseEntity }) {
            let relationship = declared.relationship
            var problems: [String] = []
            if let destination = relationship.destinationEntityName {
                if model.entity(named: destination) == nil {
                    problems.append(wording.isSwiftData ? "is typed '\(destination)', which is not \(wording.entityOfThisModel)"
                                    : "has destination '\(destination)', which is not \(wording.entityOfThisModel)")
                }
            } else {
                problems.append("has no destination entity")
            }
            if let inverseEntity = relationship.inverseEntityName, inverseEntity != relationship.destinationEntityName,
               model.entity(named: inverseEntity) == nil {
                problems.append(wording.isSwiftData ? "names an inverse of '\(inverseEntity)', which is not \(wording.entityOfThisModel)"
                                : "has inverse entity '\(inverseEntity)', which is not \(wording.entityOfThisModel)")
            }
            guard !problems.isEmpty else { continue }
            violations.append(declared.violation(
                "'\(declared.qualifiedName)' " + problems.joined(separator: " and ")
                    + (wording.isSwiftData ? "; make that type a @Model class of the schema, or pass the folder that declares it"
                                           : "; set it to an entity of the model"),
                suggestion: Self.closestEntityName(to: relationship.destinationEntityName, in: model.model)
                    .map { "did you mean '\($0)'?" }))
        }
        return violations
    }

    /// An entity whose name differs from `name` only in case, the usual slip in a hand edit.
    static func closestEntityName(to name: String?, in model: Model) -> String? {
        guard let name, model.entity(named: name) == nil else { return nil }
        return model.entities.first { $0.name.lowercased() == name.lowercased() }?.name
    }
}

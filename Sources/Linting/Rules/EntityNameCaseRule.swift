import DataModel

/// An entity name that does not start with an uppercase letter.
public struct EntityNameCaseRule: Rule {
    public static let description = RuleDescription(
        id: "entity_name_case",
        name: "Entity Name Case",
        summary: "An entity name does not start with an uppercase letter.",
        rationale: """
            Entities become classes, and Swift and Objective-C classes are UpperCamelCase; Xcode's model \
            editor enforces an uppercase first letter when you name an entity, so a lowercase one comes \
            from a hand edit or another tool. Core Data also derives SQLite table names from entity \
            names, so odd characters there break the store at run time.

            Default severity: warning. A lowercase first letter builds and runs; it breaks conventions \
            and generated code's readability, not the store.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsentitydescription/name",
            "https://github.com/lionheart/openradar-mirror/issues/2116",
            "docs/coredata-semantics.md §4 Texts (entity names)",
        ],
        howToFix: "Rename the entity so it starts with an uppercase letter (`note` becomes `Note`).",
        category: .names,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                ↓<entity name="note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                ↓<entity name="_Cache"/>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                <entity name="URLCache"/>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        let wording = ModelWording(model.model)
        return model.entities { $0.name.first.map { !$0.isUppercase } ?? false }.map { found in
            let entity = found.entity
            let suggestion = Naming.uppercasingFirst(String(entity.name.drop { !$0.isLetter }))
            return Violation(
                message: "\(wording.entityNoun) '\(entity.name)' should start with an uppercase letter; rename it"
                    + (suggestion.isEmpty ? "" : " (e.g. '\(suggestion)')"),
                location: entity.location, entityName: entity.name,
                suggestion: suggestion.isEmpty ? nil : "rename '\(entity.name)' to '\(suggestion)'")
        }
    }
}

import DataModel

/// A property name that does not start with a lowercase letter.
public struct PropertyNameCaseRule: Rule {
    public static let description = RuleDescription(
        id: "property_name_case",
        name: "Property Name Case",
        summary: "A property name does not start with a lowercase letter.",
        rationale: """
            Properties become Swift and Objective-C properties and key-value-coding keys, which are \
            lowerCamelCase; Xcode's model editor enforces a lowercase first letter. An uppercase first \
            letter breaks the KVC accessor pattern Core Data's generated accessors follow (`name`/`setName:`) \
            and reads as a type name in code.

            Default severity: warning. The model builds and loads (OpenEmu's `Image.Box` ships); the \
            name is only awkward to use.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nspropertydescription/name",
            "https://developer.apple.com/library/archive/documentation/Cocoa/Conceptual/KeyValueCoding/Compliant.html",
            "docs/coredata-semantics.md §4 Texts (casing)",
        ],
        howToFix: """
            Rename the property so it starts with a lowercase letter (`Title` becomes `title`, `URL` \
            becomes `url`); set the old name as its renaming identifier in a new model version to keep \
            stored data.
            """,
        category: .names,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<attribute name="Title" optional="YES" attributeType="String"/>
                    ↓<attribute name="URLString" optional="YES" attributeType="String"/>
                    ↓<relationship name="Folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
                </entity>
                <entity name="Folder"/>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="urlString" optional="YES" attributeType="String"/>
                    <relationship name="folder" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder"/>
                </entity>
                <entity name="Folder"/>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        model.properties(whereName: { !$0.isEmpty && !Naming.startsLowercase($0) }).map { found in
            let entity = found.owner.entity, property = found.property
            let suggestion = Naming.lowerCamelCase(String(property.name.drop { !$0.isLetter }))
            return Violation(
                message: "property '\(entity.name).\(property.name)' should start with a lowercase letter; rename it"
                    + (suggestion.isEmpty ? "" : " (e.g. '\(suggestion)')"),
                location: property.location, entityName: entity.name, propertyName: property.name,
                suggestion: suggestion.isEmpty ? nil : "rename '\(property.name)' to '\(suggestion)'")
        }
    }
}

import DataModel

/// A non-optional attribute without a default on an entity synced with CloudKit.
public struct CloudKitRequiredAttributeRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_required_attribute",
        name: "CloudKit Required Attribute",
        summary: "An attribute synced with CloudKit is non-optional and has no default value.",
        rationale: """
            Records arrive from CloudKit field by field and may lack a value, so Core Data requires: \
            "CloudKit integration requires that all attributes be optional, or have a default value set. \
            The following attributes are marked non-optional but do not have a default value:". \
            Transient attributes are not synced and are not flagged. \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all + ["https://github.com/CubeLabsNZ/CubeTime/pull/131"],
        howToFix: "Make the attribute optional, or give it a default value.",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<attribute name="title" attributeType="String"/>
                    <attribute name="created" attributeType="Date" defaultDateTimeInterval="0" usesScalarValueType="NO"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <attribute name="title" optional="YES" attributeType="String"/>
                    <attribute name="pinned" attributeType="Boolean" defaultValueString="NO" usesScalarValueType="YES"/>
                    <attribute name="preview" transient="YES" attributeType="String"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Note"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        let wording = ModelWording(model.model)
        return model.cloudKitAttributes { !$0.isOptional && !$0.isTransient }.compactMap { declared in
            let attribute = declared.attribute
            guard !attribute.hasDefaultValue else { return nil }
            // Core Data's words first (what the app logs when the store fails to load), then the
            // property in its author's terms.
            let problem = wording.isSwiftData
                ? "'\(declared.qualifiedName)' is neither optional nor given an initial value; make it optional "
                    + "('\(wording.typeName(of: attribute))?') or give it an initial value"
                : "'\(declared.qualifiedName)' is marked non-optional but does not have a default value; "
                    + "make it optional or give it a default"
            return declared.violation(
                "CloudKit integration requires that all attributes be optional, or have a default value set: " + problem)
        }
    }
}

import DataModel

/// An Undefined or ObjectID attribute on an entity synced with CloudKit.
public struct CloudKitUnsupportedAttributeTypeRule: Rule {
    public static let description = RuleDescription(
        id: "cloudkit_unsupported_attribute_type",
        name: "CloudKit Unsupported Attribute Type",
        summary: "An attribute synced with CloudKit has type Undefined or ObjectID.",
        rationale: """
            A CloudKit record field needs a concrete, portable value; an object ID is meaningful only \
            in one store. Core Data refuses: "CloudKit integration does not support all attribute \
            types. The following entities have attributes of an unsupported type:", with entries ending \
            `- Unsupported attribute type (<type>)`. Transient attributes are not synced and are not \
            flagged. \(CloudKitSources.consequence)
            """,
        sources: CloudKitSources.all,
        howToFix: "Give the attribute a concrete type; store a reference as a relationship, or as a UUID or URI attribute.",
        category: .cloudKit,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Bookmark">
                    ↓<attribute name="target" optional="YES" attributeType="ObjectID"/>
                    ↓<attribute name="payload" optional="YES" attributeType="Undefined"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Bookmark"/>
                </configuration>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Bookmark">
                    <attribute name="targetURI" optional="YES" attributeType="URI"/>
                    <attribute name="scratch" optional="YES" transient="YES" attributeType="Undefined"/>
                </entity>
                <configuration name="Cloud" usedWithCloudKit="YES">
                    <memberEntity name="Bookmark"/>
                </configuration>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        let candidates = model.cloudKitAttributes { traits in
            !traits.isTransient && (traits.attributeType == .undefined || traits.attributeType == .objectID)
        }
        return candidates.compactMap { declared in
            guard let type = declared.attribute.attributeType else { return nil }
            return declared.violation(
                "CloudKit integration does not support all attribute types: '\(declared.qualifiedName)' - "
                    + "Unsupported attribute type (\(type.xmlName)); give it a concrete type")
        }
    }
}

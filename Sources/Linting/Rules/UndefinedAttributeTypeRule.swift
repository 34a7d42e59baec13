import DataModel

/// A persistent attribute with type Undefined or no type at all.
public struct UndefinedAttributeTypeRule: Rule {
    public static let description = RuleDescription(
        id: "undefined_attribute_type",
        name: "Undefined Attribute Type",
        summary: "A non-transient attribute has type Undefined, or no type.",
        rationale: """
            Every attribute needs a type, and `NSUndefinedAttributeType` is allowed only for transient \
            attributes, which are never stored (CoreData's `NSAttributeDescription.h`). A persistent \
            attribute without a type cannot be given a column, so Xcode refuses to compile the model and a \
            model built in code fails when the store loads.

            Default severity: error. Xcode's model compiler refuses the model, and a model built in \
            code fails when the store loads.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsattributedescription",
            "https://developer.apple.com/documentation/coredata/nsattributetype/undefinedattributetype",
            "CoreData's NSAttributeDescription.h (https://github.com/phracker/MacOSX-SDKs)",
        ],
        howToFix: "Give the attribute a type, or mark it transient if it is only computed in memory.",
        category: .types,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<attribute name="payload" optional="YES" attributeType="Undefined"/>
                    ↓<attribute name="title" optional="YES"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <attribute name="payload" optional="YES" transient="YES" attributeType="Undefined"/>
                    <attribute name="title" optional="YES" attributeType="String"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only persistent attributes with no type or Undefined are looked at further.
        let candidates = model.declaredAttributes { traits in
            !traits.isTransient && (traits.attributeType == nil || traits.attributeType == .undefined)
        }
        return candidates.compactMap { declared in
            switch declared.attribute.attributeType {
            case nil:
                return declared.violation("'\(declared.qualifiedName)' has no attribute type; give it a type, or make it transient")
            case .undefined?:
                return declared.violation("'\(declared.qualifiedName)' has type Undefined, which Core Data allows only "
                    + "for transient attributes; give it a type, or make it transient")
            default:
                return nil
            }
        }
    }
}

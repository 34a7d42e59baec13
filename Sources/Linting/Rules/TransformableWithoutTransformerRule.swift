import DataModel

/// A Transformable attribute that falls back to the insecure keyed unarchiver.
public struct TransformableWithoutTransformerRule: Rule {
    public static let description = RuleDescription(
        id: "transformable_without_transformer",
        name: "Transformable Without Transformer",
        summary: "A Transformable attribute has no value transformer, or names the insecure keyed-unarchiving one.",
        rationale: """
            Without a `valueTransformerName`, Core Data archives the value with an NSCoding transformer \
            (CoreData's `NSAttributeDescription.h`), which is `NSKeyedUnarchiveFromDataTransformerName`: \
            it unarchives any class, the deserialization hole NSSecureCoding closes. Since iOS 13 Xcode \
            warns "is using a nil or insecure value transformer. Please switch to \
            NSSecureUnarchiveFromDataTransformerName or a custom NSValueTransformer subclass of \
            NSSecureUnarchiveFromDataTransformer", and Core Data logs a run-time warning that the \
            default will change. Transient attributes are never archived and are not flagged.

            SwiftData's `@Attribute(.transformable(by:))` takes a transformer type or the name a \
            transformer is registered under (`transformable(by transformerName: String)`), and \
            SwiftData keeps the property in a Core Data Transformable attribute: naming \
            `NSKeyedUnarchiveFromData` there selects the same insecure unarchiver (Foundation deprecated \
            `keyedUnarchiveFromDataTransformerName` and `unarchiveFromDataTransformerName` in iOS 12, \
            before SwiftData's iOS 17). That SwiftData hands the name to the Core Data attribute \
            unchanged is inferred (its documentation does not say); `.transformable(by:)` always names a \
            transformer, so only an insecure name is reported there.

            Default severity: warning. The model builds and the attribute works today; Xcode itself \
            reports it as a warning, about security and a future change of default.
            """,
        sources: [
            "https://developer.apple.com/documentation/foundation/nssecureunarchivefromdatatransformer",
            "https://developer.apple.com/documentation/swiftdata/schema/attribute/option/transformable(by:)-lunz",
            "https://developer.apple.com/documentation/foundation/nsvaluetransformername/keyedunarchivefromdatatransformername",
            "https://danielbernal.co/coredata-transformable-and-nssecurecoding-in-ios-13/",
            "https://www.kairadiagne.com/2020/01/13/nssecurecoding-and-transformable-properties-in-core-data",
        ],
        howToFix: """
            Set the transformer to `NSSecureUnarchiveFromDataTransformer` (for arrays, dictionaries, \
            strings, numbers, dates, data, URLs and UUIDs), or to your own subclass of \
            `NSSecureUnarchiveFromDataTransformer` that lists your classes in `allowedTopLevelClasses`. \
            In SwiftData, write `.transformable(by: NSSecureUnarchiveFromDataTransformer.self)` or your \
            subclass, or drop `.transformable` and let SwiftData encode a `Codable` value itself.
            """,
        category: .types,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<attribute name="tags" optional="YES" attributeType="Transformable" customClassName="[String]"/>
                    ↓<attribute name="style" optional="YES" attributeType="Transformable" valueTransformerName="NSKeyedUnarchiveFromData"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <attribute name="tags" optional="YES" attributeType="Transformable" valueTransformerName="NSSecureUnarchiveFromData" customClassName="[String]"/>
                    <attribute name="color" optional="YES" attributeType="Transformable" valueTransformerName="ColorTransformer" customClassName="UIColor"/>
                    <attribute name="layoutCache" optional="YES" transient="YES" attributeType="Transformable"/>
                </entity>
                """),
        ])

    public init() {}

    /// The names Xcode and code use for the insecure keyed unarchiver.
    static let insecureTransformerNames: Set<String> = [
        "NSKeyedUnarchiveFromData", "NSKeyedUnarchiveFromDataTransformerName",
        "NSUnarchiveFromData", "NSUnarchiveFromDataTransformerName",
    ]

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only persistent Transformable attributes are looked at further.
        let candidates = model.declaredAttributes { $0.attributeType == .transformable && !$0.isTransient }
        let isSwiftData = ModelWording(model.model).isSwiftData
        return candidates.compactMap { declared in
            let transformer = declared.attribute.valueTransformerName ?? ""
            let fix = isSwiftData
                ? "write .transformable(by: NSSecureUnarchiveFromDataTransformer.self) or a subclass of it, or drop "
                    + ".transformable and let SwiftData encode a Codable value"
                : "set its transformer to 'NSSecureUnarchiveFromDataTransformer' or a subclass of it"
            if transformer.isEmpty {
                return declared.violation("'\(declared.qualifiedName)' is Transformable with no value transformer, so it "
                    + "falls back to the insecure keyed unarchiver; \(fix)", suggestion: fix)
            }
            guard Self.insecureTransformerNames.contains(transformer) else { return nil }
            return declared.violation("'\(declared.qualifiedName)' uses the insecure transformer '\(transformer)'; \(fix)",
                                      suggestion: fix)
        }
    }
}

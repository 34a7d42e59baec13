import DataModel

/// `allowsExternalBinaryDataStorage` on an attribute whose value is not stored as data.
public struct ExternalStorageOnNonBinaryRule: Rule {
    public static let description = RuleDescription(
        id: "external_storage_on_non_binary",
        name: "External Storage on Non-Binary",
        summary: "An attribute that is neither Binary nor Transformable allows external storage.",
        rationale: """
            External storage lets Core Data keep large blobs in files next to the store instead of in \
            the SQLite row. It applies to values stored as data: Binary attributes, and Transformable \
            ones, which are archived to data (Xcode offers the option for both). On any other type the \
            flag does nothing, so it signals a mistaken type: usually an attribute meant to be Binary.

            Default severity: warning. The flag is ignored, so nothing fails; it only points at a likely \
            mistake.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsattributedescription/allowsexternalbinarydatastorage",
            "docs/coredata-semantics.md §4 Other rules",
        ],
        howToFix: "Turn off Allows External Storage, or change the attribute's type to Binary Data if it holds large data.",
        category: .types,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Photo">
                    ↓<attribute name="caption" optional="YES" attributeType="String" allowsExternalBinaryDataStorage="YES"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Photo">
                    <attribute name="caption" optional="YES" attributeType="String"/>
                    <attribute name="imageData" optional="YES" attributeType="Binary" allowsExternalBinaryDataStorage="YES"/>
                    <attribute name="thumbnail" optional="YES" attributeType="Transformable" valueTransformerName="ImageTransformer" allowsExternalBinaryDataStorage="YES"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        // Traits first: only attributes allowing external storage are looked at further.
        let candidates = model.declaredAttributes { $0.allowsExternalBinaryDataStorage }
        let wording = ModelWording(model.model)
        return candidates.compactMap { declared in
            let attribute = declared.attribute
            guard let type = attribute.attributeType, type != .binary, type != .transformable else { return nil }
            return declared.violation(
                "'\(declared.qualifiedName)' allows external storage but is \(wording.typeName(of: attribute)), "
                    + "not \(wording.binaryTypeName); \(wording.isSwiftData ? "remove \(wording.externalStorageName)" : "turn external storage off"), "
                    + "or make it \(wording.binaryTypeName) "
                    + "if it holds large data",
                suggestion: "remove \(wording.externalStorageName) from '\(declared.qualifiedName)'")
        }
    }
}

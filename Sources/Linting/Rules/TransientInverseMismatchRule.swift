import DataModel

/// A transient relationship paired with a persistent inverse, or the reverse.
public struct TransientInverseMismatchRule: Rule {
    public static let description = RuleDescription(
        id: "transient_inverse_mismatch",
        name: "Transient Inverse Mismatch",
        summary: "A transient relationship's inverse is persistent, or a persistent relationship's inverse is transient.",
        rationale: """
            The two sides of a relationship are one fact stored once: one side cannot be saved while \
            the other is thrown away. Xcode's model compiler has rejected a transient relationship with \
            a non-transient inverse as an error since Mac OS X 10.5 (only \
            `MOMC_SUPPRESS_INVERSE_TRANSIENT_ERROR` silences it). Reported once per pair, on the \
            transient side.

            Default severity: error. Xcode's model compiler stops on it unless the error is \
            explicitly suppressed.
            """,
        sources: [
            "https://github.com/swiftlang/swift-build (Sources/SWBApplePlatform/Specs/CoreData.xcspec)",
            "https://developer.apple.com/documentation/coredata/nspropertydescription/istransient",
        ],
        howToFix: "Make both sides transient, or both persistent.",
        category: .types,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    ↓<relationship name="previewFolder" optional="YES" transient="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="notes" inverseEntity="Folder"/>
                </entity>
                <entity name="Folder">
                    <relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="previewFolder" inverseEntity="Note"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="previewFolder" optional="YES" transient="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Folder" inverseName="previewNotes" inverseEntity="Folder"/>
                </entity>
                <entity name="Folder">
                    <relationship name="previewNotes" optional="YES" transient="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="previewFolder" inverseEntity="Note"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        var violations: [Violation] = []
        // Traits first: only pairs whose sides differ in being transient are looked at further.
        let candidates = model.declaredRelationships { traits, inverse in
            inverse.map { $0.isTransient != traits.isTransient } ?? false
        }
        for declared in candidates {
            let relationship = declared.relationship
            guard let inverse = model.resolvedInverse(of: declared) else { continue }
            // A consistent pair is reported once, on its transient side; a one-sided claim on
            // whichever side makes it.
            let pointsBack = model.resolvedInverse(of: inverse)?.relationship.location == relationship.location
            if pointsBack && !relationship.isTransient { continue }
            let (transient, persistent) = relationship.isTransient
                ? (declared.qualifiedName, inverse.qualifiedName) : (inverse.qualifiedName, declared.qualifiedName)
            violations.append(declared.violation(
                "'\(transient)' is transient but its inverse '\(persistent)' is not; make both transient or both persistent"))
        }
        return violations
    }
}

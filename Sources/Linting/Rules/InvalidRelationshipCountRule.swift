import DataModel

/// Relationship counts that contradict each other or the relationship's cardinality.
public struct InvalidRelationshipCountRule: Rule {
    public static let description = RuleDescription(
        id: "invalid_relationship_count",
        name: "Invalid Relationship Count",
        summary: "A relationship's minCount is above its maxCount, or its counts contradict a to-one.",
        rationale: """
            `minCount` and `maxCount` bound a to-many relationship at validation; a `maxCount` of 0 \
            means unbounded, and a to-one is 1/1 by definition. A minimum above the maximum can never \
            be satisfied, so every non-empty save of the relationship fails validation (1580 or 1590); \
            counts above 1 on a to-one say the relationship was meant to be to-many. Negative or \
            non-numeric counts are not counts at all.

            Default severity: error when saves fail: a to-many whose minimum is above its maximum \
            (every non-empty value fails validation, 1580 or 1590) and a to-one with a minimum above \
            1 (its one object is below the minimum; inferred from Core Data's count checks). A \
            maximum above 1 on a to-one, or a count that is negative or not a number, is a warning: \
            the model builds and loads, and the count is only misleading.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsrelationshipdescription/mincount",
            "https://developer.apple.com/documentation/coredata/nsrelationshipdescription/maxcount",
            "CoreData's NSRelationshipDescription.h (https://github.com/phracker/MacOSX-SDKs)",
        ],
        howToFix: """
            Make `minCount` at most `maxCount` (or set `maxCount` to 0 for no maximum); for a to-one, \
            remove the counts or make the relationship to-many.
            """,
        category: .relationships,
        defaultSeverity: .error,
        triggeringExamples: [
            RuleExample("""
                <entity name="Team">
                    ↓<relationship name="players" optional="YES" toMany="YES" minCount="5" maxCount="3" deletionRule="Nullify" destinationEntity="Player"/>
                </entity>
                <entity name="Player">
                    ↓<relationship name="team" optional="YES" minCount="2" maxCount="4" deletionRule="Nullify" destinationEntity="Team"/>
                </entity>
                """),
            // Warnings: misleading counts that no save trips over.
            RuleExample("""
                <entity name="Team">
                    ↓<relationship name="players" optional="YES" toMany="YES" minCount="-1" deletionRule="Nullify" destinationEntity="Player"/>
                </entity>
                <entity name="Player">
                    ↓<relationship name="team" optional="YES" maxCount="3" deletionRule="Nullify" destinationEntity="Team"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Team">
                    <relationship name="players" optional="YES" toMany="YES" minCount="2" maxCount="11" deletionRule="Nullify" destinationEntity="Player"/>
                    <relationship name="fans" optional="YES" toMany="YES" minCount="1" deletionRule="Nullify" destinationEntity="Player"/>
                </entity>
                <entity name="Player">
                    <relationship name="team" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="Team"/>
                    <relationship name="coach" minCount="1" maxCount="1" deletionRule="Nullify" destinationEntity="Team"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        var violations: [Violation] = []
        // Traits first: counts of 0 and 1 (what Xcode writes) can break none of the checks below.
        let wording = ModelWording(model.model)
        let minName = wording.minimumCountName, maxName = wording.maximumCountName
        for declared in model.declaredRelationships(where: { traits, _ in traits.hasUnusualCount }) {
            let relationship = declared.relationship
            var problems: [String] = []
            // Warning unless a save must fail (see the rationale).
            var severity = Severity.warning
            // The texts as written: a count that is not a number has no typed value to check.
            func check(_ attribute: String, _ written: String?) {
                guard let text = written else { return }
                if let value = Int(text) {
                    if value < 0 { problems.append("has \(attribute) \(value), which is negative") }
                } else {
                    problems.append("has \(attribute) '\(text)', which is not a whole number")
                }
            }
            check(minName, relationship.minCountText)
            check(maxName, relationship.maxCountText)
            let minCount = relationship.minCount ?? 0
            let maxCount = relationship.maxCount ?? 0
            if relationship.isToMany {
                if maxCount > 0 && minCount > maxCount {
                    problems.append("has \(minName) \(minCount) above \(maxName) \(maxCount), so no non-empty value is valid")
                    severity = .error
                }
            } else if minCount > 1 || maxCount > 1 {
                if minCount > 1 { severity = .error }
                problems.append("is to-one but has \(minName) \(minCount) and \(maxName) \(maxCount); "
                    + "a to-one holds at most one object")
            }
            guard !problems.isEmpty else { continue }
            violations.append(declared.violation(
                "'\(declared.qualifiedName)' " + problems.joined(separator: "; ")
                    + (relationship.isToMany ? "; make \(minName) at most \(maxName) (0 means no maximum)"
                                             : wording.isSwiftData ? "; remove \(minName) and \(maxName), or make it an array"
                                                                   : "; remove the counts or make it to-many"),
                severity: severity))
        }
        return violations
    }
}

import DataModel

/// Several relationships that name the same relationship as their inverse.
public struct AmbiguousInverseRule: Rule {
    public static let description = RuleDescription(
        id: "ambiguous_inverse",
        name: "Ambiguous Inverse",
        summary: "Several relationships name the same relationship as their inverse.",
        rationale: """
            A relationship has exactly one inverse, and the pair must name each other. When \
            `Note.author` and `Note.editor` both claim `User.notes`, at most one pair is consistent: \
            Core Data maintains that one and silently leaves the other side stale, so a note's editor \
            never sees the note in `notes`, or sees notes it only authored. Reported once for the \
            whole group, not once per member.

            Default severity: warning. Such models build: Xcode compiles every version of a bundle \
            into the `.momd`, and the public artsy/energy-legacy bundle kept a version in which \
            `Image.artist` and `Image.thumbnail` both claim `Artist.thumbnail`. Nothing fails at run \
            time either; one side is silently stale, which is why it is worth fixing.
            """,
        sources: [
            "https://developer.apple.com/documentation/coredata/nsrelationshipdescription/inverserelationship",
            "https://developer.apple.com/documentation/coredata/configuring-relationships",
        ],
        howToFix: """
            Give each claimer its own inverse on the destination (`User.authoredNotes` for \
            `Note.author`, `User.editedNotes` for `Note.editor`), each naming its partner back.
            """,
        category: .relationships,
        defaultSeverity: .warning,
        triggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                    <relationship name="editor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="notes" inverseEntity="User"/>
                </entity>
                <entity name="User">
                    ↓<relationship name="notes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="author" inverseEntity="Note"/>
                </entity>
                """),
        ],
        nonTriggeringExamples: [
            RuleExample("""
                <entity name="Note">
                    <relationship name="author" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="authoredNotes" inverseEntity="User"/>
                    <relationship name="editor" optional="YES" maxCount="1" deletionRule="Nullify" destinationEntity="User" inverseName="editedNotes" inverseEntity="User"/>
                </entity>
                <entity name="User">
                    <relationship name="authoredNotes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="author" inverseEntity="Note"/>
                    <relationship name="editedNotes" optional="YES" toMany="YES" deletionRule="Nullify" destinationEntity="Note" inverseName="editor" inverseEntity="Note"/>
                </entity>
                """),
        ])

    public init() {}

    public func violations(in model: LintedModel) -> [Violation] {
        model.ambiguousInverseGroups.groups.map { group in
            let claimed = group.claimed
            let names = group.claimers.map(\.qualifiedName)
            let destination = claimed.entity.name
            let suggestions = group.claimers.map { claimer in
                Naming.plural(Naming.lowerCamelCase(claimer.entity.name)) + "As" + Naming.uppercasingFirst(claimer.relationship.name)
            }
            return Violation(
                message: "\(Naming.quotedList(names)) \(names.count == 2 ? "both" : "all") name '\(claimed.qualifiedName)' as their inverse; "
                    + "a relationship has one inverse, so give each its own on '\(destination)' "
                    + "(e.g. \(Naming.quotedList(suggestions)))",
                location: claimed.relationship.location, entityName: destination,
                propertyName: claimed.relationship.name,
                suggestion: "add one relationship on '\(destination)' per claimer and pair each with its claimer")
        }
    }
}
